// The client teams' journey in Java, with the client openapi-generator generates from
// generated/openapi.json (library `okhttp-gson`, the generator's default; into .sdks/gen/java by
// scripts/sdks/run.ts, build output, not committed). Every request goes through a generated method;
// the headers the document declares (Idempotency-Key, If-Match, If-None-Match) are the methods' typed
// parameters, and each security scheme of the document is an Authentication of the ApiClient:
// sessionCookie (the cookie's value from the sign-in's Set-Cookie), oauthClient (HTTP Basic at the
// token endpoint), oauth2 (the access token). Not the `native` library: it parses every answer as
// JSON, a CSV export too.
// Run by `make sdks` against a live server: HRMS_BASE_URL, HRMS_EMAIL, HRMS_PASSWORD.
package com.example.hrms.journey;

import com.example.hrms.client.ApiClient;
import com.example.hrms.client.ApiException;
import com.example.hrms.client.ApiResponse;
import com.example.hrms.client.JSON;
import com.example.hrms.client.auth.ApiKeyAuth;
import com.example.hrms.client.auth.HttpBasicAuth;
import com.example.hrms.client.auth.OAuth;
import com.example.hrms.client.api.AuthApi;
import com.example.hrms.client.api.BulkApi;
import com.example.hrms.client.api.EmployeesApi;
import com.example.hrms.client.api.IntegrationsApi;
import com.example.hrms.client.api.PayrollApi;
import com.example.hrms.client.api.UtilitiesApi;
import com.example.hrms.client.model.ApiCredentialCreate;
import com.example.hrms.client.model.ApiCredentialIssued;
import com.example.hrms.client.model.EmployeeCreate;
import com.example.hrms.client.model.EmployeeDirectoryEntry;
import com.example.hrms.client.model.EmployeeUpdate;
import com.example.hrms.client.model.Error;
import com.example.hrms.client.model.ListEmployees200Response;
import com.example.hrms.client.model.PayrollRun;
import com.example.hrms.client.model.PayrollRunStatus;
import com.example.hrms.client.model.SignInRequest;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

public final class Journey {
  private Journey() {}

  private static void step(String what) {
    System.out.println("java: " + what);
  }

  private static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError("java: " + what);
  }

  private static ApiClient client(String base) {
    ApiClient c = new ApiClient();
    c.setBasePath(base);
    return c;
  }

  /** The first value of a response header (OkHttp gives the names in lower case). */
  private static String header(java.util.Map<String, List<String>> headers, String name) {
    List<String> values = headers.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  private static int status(ThrowingCall call) throws Exception {
    try {
      return call.run().getStatusCode();
    } catch (ApiException e) {
      return e.getCode();
    }
  }

  @FunctionalInterface
  private interface ThrowingCall {
    ApiResponse<?> run() throws ApiException;
  }

  public static void main(String[] args) throws Exception {
    String base = System.getenv("HRMS_BASE_URL");

    // Sign in: the session cookie's value (Set-Cookie) becomes the sessionCookie scheme's key.
    ApiClient session = client(base);
    ApiResponse<?> signed =
        new AuthApi(session).signInWithHttpInfo(new SignInRequest().email(System.getenv("HRMS_EMAIL")).password(System.getenv("HRMS_PASSWORD")));
    check(signed.getStatusCode() == 200, "sign-in");
    String sid =
        signed.getHeaders().getOrDefault("set-cookie", List.of()).stream()
            .filter(c -> c.startsWith("hrms.sid="))
            .map(c -> c.substring("hrms.sid=".length(), c.indexOf(';')))
            .findFirst()
            .orElseThrow();
    ((ApiKeyAuth) session.getAuthentication("sessionCookie")).setApiKey(sid);
    step("signed in (cookie)");

    // An API credential (session only), then an OAuth 2.0 token by client credentials (HTTP Basic).
    ApiCredentialIssued issued =
        new IntegrationsApi(session)
            .createApiCredential(
                new ApiCredentialCreate()
                    .name("SDK journey java " + UUID.randomUUID().toString().substring(0, 8))
                    .role(ApiCredentialCreate.RoleEnum.HR)
                    .scopes(new java.util.LinkedHashSet<>(List.of("employees:read", "employees:write", "payroll:read"))),
                null)
            .getData();
    ApiClient oauthClient = client(base);
    HttpBasicAuth basic = (HttpBasicAuth) oauthClient.getAuthentication("oauthClient");
    basic.setUsername(issued.getCredential().getPrefix());
    basic.setPassword(issued.getSecret());
    String token = new IntegrationsApi(oauthClient).issueOAuthToken("client_credentials", null, null, null).getAccessToken();
    ApiClient api = client(base);
    ((OAuth) api.getAuthentication("oauth2")).setAccessToken(token);
    EmployeesApi employees = new EmployeesApi(api);
    step("OAuth token by client credentials");

    // Create with an Idempotency-Key, retry it: the first answer replayed, one record.
    String key = UUID.randomUUID().toString();
    String email = "sdk.java." + key.substring(0, 8) + "@journey.example";
    EmployeeCreate body =
        new EmployeeCreate()
            .firstName("Jana")
            .lastName("Va")
            .email(email)
            .department("Engineering")
            .designation("SDK tester")
            .joiningDate(java.time.LocalDate.of(2026, 1, 5));
    var first = employees.createEmployeeWithHttpInfo(body, key);
    var again = employees.createEmployeeWithHttpInfo(body, key);
    check(first.getStatusCode() == 201 && again.getStatusCode() == 201, "201 twice");
    check("true".equals(header(again.getHeaders(), "idempotent-replayed")), "the retry is replayed");
    UUID id = first.getData().getData().getId();
    check(id.equals(again.getData().getData().getId()), "the same record");
    List<EmployeeDirectoryEntry> found = employees.listEmployees(email, null, null, null, null, null, null, null, null, null).getData();
    check(found.size() == 1 && found.get(0).getId().equals(id), "one record with the e-mail");
    step("create with Idempotency-Key, retried: replayed, one record");

    // Read it, then with If-None-Match: 304.
    var read = employees.getEmployeeWithHttpInfo(id, null);
    String etag = header(read.getHeaders(), "etag");
    check(status(() -> employees.getEmployeeWithHttpInfo(id, etag)) == 304, "If-None-Match: 304");
    step("read with If-None-Match: 304");

    // Update with a stale If-Match (412), then the current one (200).
    EmployeeUpdate change = new EmployeeUpdate().designation("Senior SDK tester");
    check(status(() -> employees.updateEmployeeWithHttpInfo(id, change, "\"" + "0".repeat(27) + "\"")) == 412, "stale If-Match: 412");
    check(employees.updateEmployee(id, change, etag).getData().getDesignation().equals("Senior SDK tester"), "updated");
    step("update: stale If-Match 412, current 200");

    // Walk every employee by cursor to the end.
    Set<UUID> seen = new HashSet<>();
    String cursor = null;
    for (int pages = 0; pages < 1000; pages++) {
      ListEmployees200Response page = employees.listEmployees(null, null, null, null, "changed", null, 10, cursor, null, null);
      page.getData().forEach(e -> seen.add(e.getId()));
      if (!page.getHasMore()) break; // caught up: next_cursor is where to resume later
      cursor = page.getNextCursor();
    }
    check(seen.contains(id) && seen.size() > 10, "walked " + seen.size());
    step("walked " + seen.size() + " employees by cursor");

    // A payslip PDF of a processed run (bytes), and the employee export (CSV text).
    PayrollApi payroll = new PayrollApi(api);
    PayrollRun run = payroll.listPayrollRuns(null, null, PayrollRunStatus.PROCESSED, null).getData().get(0);
    UUID slipOf = payroll.getPayrollRunBreakdown(run.getId(), null, 1, null).getData().getEmployees().get(0).getEmployeeId();
    File pdf = payroll.downloadPayrollRunEmployeeSlip(run.getId(), slipOf);
    byte[] head = new byte[5];
    try (InputStream in = Files.newInputStream(pdf.toPath())) {
      check(in.readNBytes(head, 0, 5) == 5 && new String(head, java.nio.charset.StandardCharsets.ISO_8859_1).equals("%PDF-"), "a PDF");
    }
    String csv = new BulkApi(api).exportEmployees("csv", null, null, null, null);
    check(csv.contains(email), "the export lists the new employee");
    step("payslip PDF (bytes) and CSV export (text)");

    // An error answer parses into the typed error envelope.
    try {
      employees.getEmployee(UUID.randomUUID(), null);
      check(false, "a 404");
    } catch (ApiException e) {
      Error envelope = JSON.getGson().fromJson(e.getResponseBody(), Error.class);
      check(e.getCode() == 404 && envelope.getCode() == Error.CodeEnum.NOT_FOUND && envelope.getStatus() == 404, "the typed error");
      step("error envelope: " + envelope.getCode() + " \"" + envelope.getError() + "\"");
    }

    // 429: public requests past the address's budget; honour Retry-After, then it succeeds.
    UtilitiesApi utilities = new UtilitiesApi(client(base));
    int retryAfter = 0;
    for (int i = 0; i < 50 && retryAfter == 0; i++) {
      try {
        utilities.getServerTimeWithHttpInfo();
      } catch (ApiException e) {
        check(e.getCode() == 429, "server time: " + e.getCode());
        retryAfter = Integer.parseInt(header(e.getResponseHeaders(), "retry-after"));
      }
    }
    check(retryAfter > 0, "a 429 with Retry-After");
    Thread.sleep(retryAfter * 1000L);
    check(utilities.getServerTimeWithHttpInfo().getStatusCode() == 200, "after Retry-After");
    step("429 honoured (Retry-After: " + retryAfter + " s)");
    System.out.println("java: journey passed");
  }
}
