// The client teams' journey in Go, with the client openapi-generator generates from
// generated/openapi.json (into .sdks/gen/go by scripts/sdks/run.ts; build output, not committed).
// Every request goes through a generated call; the headers the document declares (Idempotency-Key,
// If-Match, If-None-Match) are the calls' typed setters; the session cookie lives in the
// http.Client's cookie jar (the generator's Go client does not send cookie-scheme keys itself), the
// OAuth token goes in the context (ContextAccessToken), the token request's client authentication
// in ContextBasicAuth. Run by `make sdks` against a live server: HRMS_BASE_URL, HRMS_EMAIL, HRMS_PASSWORD.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/cookiejar"
	"os"
	"strconv"
	"strings"
	"time"

	hrms "hrms.example/sdk/go"
)

func step(what string) { fmt.Printf("go: %s\n", what) }

func check(ok bool, format string, args ...any) {
	if !ok {
		log.Fatalf("go: "+format, args...)
	}
}

func must[T any](v T, res *http.Response, err error) (T, *http.Response) {
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		log.Fatalf("go: %v (status %d)", err, status)
	}
	return v, res
}

func uuid4() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		log.Fatal(err)
	}
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

func newClient(base string, jar http.CookieJar) *hrms.APIClient {
	cfg := hrms.NewConfiguration()
	cfg.Servers = hrms.ServerConfigurations{{URL: base}}
	cfg.HTTPClient = &http.Client{Jar: jar, Timeout: 60 * time.Second}
	return hrms.NewAPIClient(cfg)
}

func main() {
	base := os.Getenv("HRMS_BASE_URL")
	ctx := context.Background()

	// Sign in: the session cookie is kept by the cookie jar and sent with the client's later calls.
	jar, _ := cookiejar.New(nil)
	session := newClient(base, jar)
	_, res := must(session.AuthAPI.SignIn(ctx).SignInRequest(*hrms.NewSignInRequest(os.Getenv("HRMS_EMAIL"), os.Getenv("HRMS_PASSWORD"))).Execute())
	check(res.StatusCode == 200, "sign-in: %d", res.StatusCode)
	step("signed in (cookie)")

	// An API credential (session only), then an OAuth 2.0 token by client credentials (HTTP Basic).
	create := hrms.NewApiCredentialCreate("SDK journey go "+uuid4()[:8], []string{"employees:read", "employees:write", "payroll:read"})
	create.SetRole("hr")
	issued, _ := must(session.IntegrationsAPI.CreateApiCredential(ctx).ApiCredentialCreate(*create).Execute())
	anonymous := newClient(base, nil)
	basic := context.WithValue(ctx, hrms.ContextBasicAuth, hrms.BasicAuth{UserName: issued.Data.Credential.Prefix, Password: issued.Data.Secret})
	token, _ := must(anonymous.IntegrationsAPI.IssueOAuthToken(basic).GrantType("client_credentials").Execute())
	api := newClient(base, nil)
	auth := context.WithValue(ctx, hrms.ContextAccessToken, token.AccessToken)
	step("OAuth token by client credentials")

	// Create with an Idempotency-Key, retry it: the first answer replayed, one record.
	key := uuid4()
	email := "sdk.go." + key[:8] + "@journey.example"
	body := *hrms.NewEmployeeCreate("Gopher", "Journey", email, "Engineering", "SDK tester", "2026-01-05")
	first, _ := must(api.EmployeesAPI.CreateEmployee(auth).EmployeeCreate(body).IdempotencyKey(key).Execute())
	again, res := must(api.EmployeesAPI.CreateEmployee(auth).EmployeeCreate(body).IdempotencyKey(key).Execute())
	check(res.Header.Get("Idempotent-Replayed") == "true", "the retry is replayed")
	id := first.Data.Id
	check(again.Data.Id == id, "the same record: %s, %s", id, again.Data.Id)
	found, _ := must(api.EmployeesAPI.ListEmployees(auth).Search(email).Execute())
	check(len(found.Data) == 1 && found.Data[0].Id == id, "one record with the e-mail, got %d", len(found.Data))
	step("create with Idempotency-Key, retried: replayed, one record")

	// Read it, then with If-None-Match: 304.
	_, res = must(api.EmployeesAPI.GetEmployee(auth, id).Execute())
	etag := res.Header.Get("ETag")
	check(etag != "", "an ETag")
	_, res, _ = api.EmployeesAPI.GetEmployee(auth, id).IfNoneMatch(etag).Execute()
	check(res != nil && res.StatusCode == 304, "If-None-Match: want 304")
	step("read with If-None-Match: 304")

	// Update with a stale If-Match (412), then the current one (200).
	change := hrms.NewEmployeeUpdate()
	change.SetDesignation("Senior SDK tester")
	_, res, err := api.EmployeesAPI.UpdateEmployee(auth, id).EmployeeUpdate(*change).IfMatch(`"` + strings.Repeat("0", 27) + `"`).Execute()
	check(err != nil && res.StatusCode == 412, "a stale If-Match: want 412")
	updated, _ := must(api.EmployeesAPI.UpdateEmployee(auth, id).EmployeeUpdate(*change).IfMatch(etag).Execute())
	check(updated.Data.Designation == "Senior SDK tester", "updated")
	step("update: stale If-Match 412, current 200")

	// Walk every employee by cursor to the end.
	seen := map[string]bool{}
	cursor := ""
	for pages := 0; pages < 1000; pages++ {
		req := api.EmployeesAPI.ListEmployees(auth).Sort("changed").Limit(10)
		if cursor != "" {
			req = req.Cursor(cursor)
		}
		page, _ := must(req.Execute())
		for _, e := range page.Data {
			seen[e.Id] = true
		}
		if !page.HasMore { // caught up: next_cursor is where to resume later
			break
		}
		cursor = page.GetNextCursor()
	}
	check(seen[id] && len(seen) > 10, "walked %d employees", len(seen))
	step(fmt.Sprintf("walked %d employees by cursor", len(seen)))

	// A payslip PDF of a processed run (bytes), and the employee export (CSV text).
	runs, _ := must(api.PayrollAPI.ListPayrollRuns(auth).Status(hrms.PAYROLLRUNSTATUS_PROCESSED).Execute())
	check(len(runs.Data) > 0, "a processed payroll run")
	run := runs.Data[0]
	breakdown, _ := must(api.PayrollAPI.GetPayrollRunBreakdown(auth, run.Id).Limit(1).Execute())
	check(len(breakdown.Data.Employees) > 0, "the run has a slip")
	pdf, _ := must(api.PayrollAPI.DownloadPayrollRunEmployeeSlip(auth, run.Id, breakdown.Data.Employees[0].EmployeeId).Execute())
	head := make([]byte, 5)
	_, err = io.ReadFull(pdf, head)
	check(err == nil && string(head) == "%PDF-", "a PDF")
	csv, _ := must(api.BulkAPI.ExportEmployees(auth).Format("csv").Execute())
	check(strings.Contains(csv, email), "the export lists the new employee")
	step("payslip PDF (bytes) and CSV export (text)")

	// An error answer parses into the typed error envelope.
	_, res, err = api.EmployeesAPI.GetEmployee(auth, uuid4()).Execute()
	var apiErr *hrms.GenericOpenAPIError
	check(errors.As(err, &apiErr) && res.StatusCode == 404, "a 404")
	envelope, ok := apiErr.Model().(hrms.Error)
	check(ok && envelope.Code == "not_found" && envelope.Status == 404, "the typed error: %#v", apiErr.Model())
	step(fmt.Sprintf("error envelope: %s %q", envelope.Code, envelope.Error))

	// 429: public requests past the address's budget; honour Retry-After, then it succeeds.
	public := newClient(base, nil)
	retryAfter := 0
	for i := 0; i < 50 && retryAfter == 0; i++ {
		_, res, _ := public.UtilitiesAPI.GetServerTime(ctx).Execute()
		if res.StatusCode == 429 {
			retryAfter, _ = strconv.Atoi(res.Header.Get("Retry-After"))
		} else {
			check(res.StatusCode == 200, "server time: %d", res.StatusCode)
		}
	}
	check(retryAfter > 0, "a 429 with Retry-After")
	time.Sleep(time.Duration(retryAfter) * time.Second)
	_, res = must(public.UtilitiesAPI.GetServerTime(ctx).Execute())
	check(res.StatusCode == 200, "after Retry-After")
	step(fmt.Sprintf("429 honoured (Retry-After: %d s)", retryAfter))
	fmt.Println("go: journey passed")
}
