//! The client teams' journey in Rust, with the client openapi-generator generates from
//! generated/openapi.json (reqwest with middleware; into .sdks/gen/rust by scripts/sdks/run.ts, build
//! output, not committed). Every request goes through a generated function; the headers the document
//! declares (Idempotency-Key, If-Match, If-None-Match) are the functions' typed arguments. The
//! generated functions return bodies only, so a middleware (the generator's `supportMiddleware`)
//! keeps the last answer's headers (ETag, Idempotent-Replayed) and honours a 429's Retry-After: it
//! waits that long and sends the request again. The session cookie lives in reqwest's cookie store.
//! Run by `make sdks` against a live server: HRMS_BASE_URL, HRMS_EMAIL, HRMS_PASSWORD.
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hrms_client::apis::configuration::Configuration;
use hrms_client::apis::{auth_api, bulk_api, employees_api, integrations_api, payroll_api, utilities_api, Error};
use hrms_client::models;
use reqwest_middleware::{ClientBuilder, Middleware, Next};

/// What the middleware saw: the last answer's headers, and the Retry-After of each 429 it honoured.
#[derive(Default)]
struct Seen {
    status: u16,
    headers: http::HeaderMap,
    honoured: Vec<u64>,
}

struct Observe(Arc<Mutex<Seen>>);

#[async_trait::async_trait]
impl Middleware for Observe {
    async fn handle(
        &self,
        req: reqwest::Request,
        ext: &mut http::Extensions,
        next: Next<'_>,
    ) -> reqwest_middleware::Result<reqwest::Response> {
        let again = req.try_clone();
        let mut res = next.clone().run(req, ext).await?;
        if res.status() == 429 {
            let wait = res.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
            if let (Some(wait), Some(again)) = (wait, again) {
                self.0.lock().unwrap().honoured.push(wait);
                tokio::time::sleep(Duration::from_secs(wait)).await;
                res = next.run(again, ext).await?;
            }
        }
        let mut seen = self.0.lock().unwrap();
        seen.status = res.status().as_u16();
        seen.headers = res.headers().clone();
        drop(seen);
        Ok(res)
    }
}

fn configuration(base: &str, cookies: bool, seen: &Arc<Mutex<Seen>>) -> Configuration {
    let http = reqwest::Client::builder().cookie_store(cookies).build().expect("an HTTP client");
    let mut c = Configuration::new();
    c.base_path = base.to_string();
    c.client = ClientBuilder::new(http).with(Observe(seen.clone())).build();
    c
}

fn header(seen: &Arc<Mutex<Seen>>, name: &str) -> Option<String> {
    seen.lock().unwrap().headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string)
}

fn status<T>(e: &Error<T>) -> u16 {
    match e {
        Error::ResponseError(r) => r.status.as_u16(),
        _ => 0,
    }
}

fn step(what: &str) {
    println!("rust: {what}");
}

#[tokio::main]
async fn main() {
    let base = std::env::var("HRMS_BASE_URL").expect("HRMS_BASE_URL");
    let seen = Arc::new(Mutex::new(Seen::default()));

    // Sign in: the session cookie is kept by the cookie store and sent with the later calls.
    let session = configuration(&base, true, &seen);
    let sign_in = models::SignInRequest::new(std::env::var("HRMS_EMAIL").unwrap(), std::env::var("HRMS_PASSWORD").unwrap());
    auth_api::sign_in(&session, sign_in).await.expect("sign-in");
    step("signed in (cookie)");

    // An API credential (session only), then an OAuth 2.0 token by client credentials (HTTP Basic).
    let mut create = models::ApiCredentialCreate::new(
        format!("SDK journey rust {}", &uuid::Uuid::new_v4().to_string()[..8]),
        vec!["employees:read".into(), "employees:write".into(), "payroll:read".into()],
    );
    create.role = Some(models::api_credential_create::Role::Hr);
    let issued = integrations_api::create_api_credential(&session, create, None).await.expect("a credential").data;
    let mut basic = configuration(&base, false, &seen);
    basic.basic_auth = Some((issued.credential.prefix.clone(), Some(issued.secret.clone())));
    let token = integrations_api::issue_o_auth_token(&basic, Some("client_credentials"), None, None, None).await.expect("a token");
    let mut api = configuration(&base, false, &seen);
    api.oauth_access_token = Some(token.access_token);
    step("OAuth token by client credentials");

    // Create with an Idempotency-Key, retry it: the first answer replayed, one record.
    let key = uuid::Uuid::new_v4().to_string();
    let email = format!("sdk.rust.{}@journey.example", &key[..8]);
    let body = models::EmployeeCreate::new(
        "Ferris".into(),
        "Crab".into(),
        email.clone(),
        "Engineering".into(),
        "SDK tester".into(),
        chrono::NaiveDate::from_ymd_opt(2026, 1, 5).unwrap(),
    );
    let first = employees_api::create_employee(&api, body.clone(), Some(&key)).await.expect("created").data;
    let again = employees_api::create_employee(&api, body, Some(&key)).await.expect("replayed").data;
    assert_eq!(header(&seen, "idempotent-replayed").as_deref(), Some("true"), "the retry is replayed");
    assert_eq!(first.id, again.id, "the same record");
    let id = first.id.to_string();
    let found = employees_api::list_employees(&api, Some(&email), None, None, None, None, None, None, None, None, None).await.unwrap();
    assert_eq!(found.data.iter().map(|e| e.id).collect::<Vec<_>>(), vec![first.id], "one record with the e-mail");
    step("create with Idempotency-Key, retried: replayed, one record");

    // Read it, then with If-None-Match: 304.
    employees_api::get_employee(&api, &id, None).await.expect("read");
    let etag = header(&seen, "etag").expect("an ETag");
    // a 304 has no body to parse: the generated function reports an error, the answer's status is 304
    let unchanged = employees_api::get_employee(&api, &id, Some(&etag)).await;
    assert!(unchanged.is_err() && seen.lock().unwrap().status == 304, "If-None-Match: 304");
    step("read with If-None-Match: 304");

    // Update with a stale If-Match (412), then the current one (200).
    let mut change = models::EmployeeUpdate::new();
    change.designation = Some("Senior SDK tester".into());
    let stale = format!("\"{}\"", "0".repeat(27));
    let refused = employees_api::update_employee(&api, &id, change.clone(), Some(&stale)).await;
    assert_eq!(refused.as_ref().err().map(status), Some(412), "stale If-Match: 412");
    let updated = employees_api::update_employee(&api, &id, change, Some(&etag)).await.expect("updated");
    assert_eq!(updated.data.designation, "Senior SDK tester");
    step("update: stale If-Match 412, current 200");

    // Walk every employee by cursor to the end.
    let mut walked = std::collections::HashSet::new();
    let mut cursor: Option<String> = None;
    for _ in 0..1000 {
        let page = employees_api::list_employees(&api, None, None, None, None, Some("changed"), None, Some(10), cursor.as_deref(), None, None)
            .await
            .expect("a page");
        walked.extend(page.data.iter().map(|e| e.id));
        if !page.has_more {
            break; // caught up: next_cursor is where to resume later
        }
        cursor = page.next_cursor;
    }
    assert!(walked.contains(&first.id) && walked.len() > 10, "walked {}", walked.len());
    step(&format!("walked {} employees by cursor", walked.len()));

    // A payslip PDF of a processed run (bytes), and the employee export (CSV text).
    let runs = payroll_api::list_payroll_runs(&api, None, None, Some(models::PayrollRunStatus::Processed), None).await.unwrap();
    let run = runs.data.first().expect("a processed payroll run").id.to_string();
    let breakdown = payroll_api::get_payroll_run_breakdown(&api, &run, None, Some(1), None).await.unwrap();
    let slip_of = breakdown.data.employees.first().expect("a slip").employee_id.to_string();
    let pdf = payroll_api::download_payroll_run_employee_slip(&api, &run, &slip_of).await.expect("the PDF").bytes().await.unwrap();
    assert!(pdf.starts_with(b"%PDF-"), "a PDF");
    let csv = bulk_api::export_employees(&api, Some("csv"), None, None, None, None).await.expect("the export");
    assert!(csv.contains(&email), "the export lists the new employee");
    step("payslip PDF (bytes) and CSV export (text)");

    // An error answer parses into the typed error envelope. The generated error enum is untagged and
    // every variant holds the same `Error` model, so serde fills the first (`Status400`) whatever the
    // status: the envelope is read from any variant, the status from the answer.
    use employees_api::GetEmployeeError as E;
    match employees_api::get_employee(&api, &uuid::Uuid::new_v4().to_string(), None).await {
        Err(Error::ResponseError(r)) => match r.entity {
            Some(E::Status400(e) | E::Status401(e) | E::Status403(e) | E::Status404(e) | E::Status429(e) | E::Status500(e) | E::Status503(e)) => {
                assert_eq!(r.status.as_u16(), 404);
                assert_eq!(e.code, models::error::Code::NotFound);
                assert_eq!(e.status, 404);
                step(&format!("error envelope: not_found \"{}\"", e.error));
            }
            other => panic!("rust: the typed 404 envelope, got {other:?}"),
        },
        other => panic!("rust: a 404, got {other:?}"),
    }

    // 429: public requests past the address's budget; the middleware honours Retry-After and sends
    // the request again, so every call succeeds.
    let public = configuration(&base, false, &seen);
    for _ in 0..20 {
        utilities_api::get_server_time(&public).await.expect("server time (after Retry-After where one was asked)");
        if !seen.lock().unwrap().honoured.is_empty() {
            break;
        }
    }
    let honoured = seen.lock().unwrap().honoured.clone();
    assert!(!honoured.is_empty() && honoured[0] > 0, "a 429 with Retry-After");
    step(&format!("429 honoured (Retry-After: {} s)", honoured[0]));
    println!("rust: journey passed");
}
