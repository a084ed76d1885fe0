"""The client teams' journey in Python, with the client openapi-python-client generates from
generated/openapi.json (into .sdks/gen/python by scripts/sdks/run.ts; build output, not committed).
Every request goes through a generated function; the headers the document declares (Idempotency-Key,
If-Match, If-None-Match) are the functions' typed keyword arguments; credentials are the
AuthenticatedClient's. Type-checked with mypy --strict. Run by `make sdks` against a live server:
HRMS_BASE_URL, HRMS_EMAIL, HRMS_PASSWORD."""

import base64
from datetime import date
import os
import time
import uuid
from urllib.parse import quote

from hrms_client import AuthenticatedClient, Client
from hrms_client.api.auth import sign_in
from hrms_client.api.bulk import export_employees
from hrms_client.api.employees import create_employee, get_employee, list_employees, update_employee
from hrms_client.api.integrations import create_api_credential, issue_o_auth_token
from hrms_client.api.payroll import download_payroll_run_employee_slip, get_payroll_run_breakdown, list_payroll_runs
from hrms_client.api.utilities import get_server_time
from hrms_client.models import (
    ApiCredentialCreate,
    ApiCredentialCreateRole,
    EmployeeCreate,
    EmployeeUpdate,
    Error,
    ExportEmployeesFormat,
    IssueOAuthTokenBody,
    ListEmployeesSort,
    PayrollRunStatus,
    SignInBody,
)
from hrms_client.types import UNSET, File, Unset

BASE = os.environ["HRMS_BASE_URL"]


def step(what: str) -> None:
    print(f"python: {what}", flush=True)


def main() -> None:
    anonymous = Client(base_url=BASE)

    # Sign in; the session cookie is the `sessionCookie` scheme (an apiKey in the cookie hrms.sid).
    signed = sign_in.sync_detailed(client=anonymous, body=SignInBody(email=os.environ["HRMS_EMAIL"], password=os.environ["HRMS_PASSWORD"]))
    assert signed.status_code == 200, signed.status_code
    sid = anonymous.get_httpx_client().cookies.get("hrms.sid")
    assert sid, "sign-in sets the session cookie"
    # openapi-python-client's AuthenticatedClient sends one header; for the cookie scheme it is Cookie
    session = AuthenticatedClient(base_url=BASE, token=f"hrms.sid={sid}", prefix="", auth_header_name="Cookie")
    step("signed in (cookie)")

    # An API credential (session-only), then an OAuth 2.0 token by client credentials (HTTP Basic: oauthClient).
    issued = create_api_credential.sync_detailed(
        client=session,
        body=ApiCredentialCreate(
            name=f"SDK journey python {uuid.uuid4().hex[:8]}",
            role=ApiCredentialCreateRole.HR,
            scopes=["employees:read", "employees:write", "payroll:read"],
        ),
    )
    assert issued.status_code == 201 and issued.parsed is not None and not isinstance(issued.parsed, Error), issued.content
    prefix, secret = issued.parsed.data.credential.prefix, issued.parsed.data.secret
    basic = base64.b64encode(f"{quote(prefix, safe='')}:{quote(secret, safe='')}".encode()).decode()
    token = issue_o_auth_token.sync_detailed(
        client=AuthenticatedClient(base_url=BASE, token=basic, prefix="Basic"),
        body=IssueOAuthTokenBody(grant_type="client_credentials"),
    )
    assert token.status_code == 200 and token.parsed is not None and not isinstance(token.parsed, Error), token.content
    api = AuthenticatedClient(base_url=BASE, token=token.parsed.access_token)
    step("OAuth token by client credentials")

    # Create with an Idempotency-Key, retry it: the first answer replayed, one record.
    key = str(uuid.uuid4())
    email = f"sdk.py.{key[:8]}@journey.example"
    body = EmployeeCreate(
        first_name="Pia", last_name="Thon", email=email, department="Engineering", designation="SDK tester", joining_date=date(2026, 1, 5)
    )
    first = create_employee.sync_detailed(client=api, body=body, idempotency_key=key)
    again = create_employee.sync_detailed(client=api, body=body, idempotency_key=key)
    assert first.status_code == 201 and again.status_code == 201, (first.content, again.content)
    assert again.headers.get("idempotent-replayed") == "true"
    assert first.parsed is not None and again.parsed is not None
    assert not isinstance(first.parsed, Error) and not isinstance(again.parsed, Error)
    employee_id = first.parsed.data.id
    assert again.parsed.data.id == employee_id
    found = list_employees.sync_detailed(client=api, search=email)
    assert found.parsed is not None and not isinstance(found.parsed, Error)
    assert [e.id for e in found.parsed.data] == [employee_id]
    step("create with Idempotency-Key, retried: replayed, one record")

    # Read it, then with If-None-Match: 304.
    read = get_employee.sync_detailed(employee_id, client=api)
    etag = read.headers.get("etag")
    assert read.status_code == 200 and etag
    unchanged = get_employee.sync_detailed(employee_id, client=api, if_none_match=etag)
    assert unchanged.status_code == 304, unchanged.status_code
    step("read with If-None-Match: 304")

    # Update with a stale If-Match (412), then the current one (200).
    change = EmployeeUpdate(designation="Senior SDK tester")
    refused = update_employee.sync_detailed(employee_id, client=api, body=change, if_match='"' + "0" * 27 + '"')
    assert refused.status_code == 412, refused.content
    updated = update_employee.sync_detailed(employee_id, client=api, body=change, if_match=etag)
    assert updated.status_code == 200, updated.content
    step("update: stale If-Match 412, current 200")

    # Walk every employee by cursor to the end.
    seen: set[uuid.UUID] = set()
    cursor: str | Unset | None = None
    for _ in range(1000):
        page = list_employees.sync_detailed(
            client=api, sort=ListEmployeesSort.CHANGED, limit=10, cursor=cursor if isinstance(cursor, str) else UNSET
        )
        assert page.status_code == 200 and page.parsed is not None and not isinstance(page.parsed, Error), page.content
        seen.update(e.id for e in page.parsed.data)
        cursor = page.parsed.next_cursor
        if not page.parsed.has_more:  # caught up: next_cursor is where to resume later
            break
    assert employee_id in seen and len(seen) > 10, len(seen)
    step(f"walked {len(seen)} employees by cursor")

    # A payslip PDF of a processed run (bytes) and the employee export (CSV text).
    runs = list_payroll_runs.sync_detailed(client=api, status=PayrollRunStatus.PROCESSED)
    assert runs.parsed is not None and not isinstance(runs.parsed, Error)
    run = runs.parsed.data[0]
    breakdown = get_payroll_run_breakdown.sync_detailed(run.id, client=api, limit=1)
    assert breakdown.parsed is not None and not isinstance(breakdown.parsed, Error), breakdown.content
    slip = breakdown.parsed.data.employees[0]
    pdf = download_payroll_run_employee_slip.sync_detailed(run.id, slip.employee_id, client=api)
    assert pdf.status_code == 200 and isinstance(pdf.parsed, File), pdf.status_code
    assert pdf.parsed.payload.read(5) == b"%PDF-"
    csv = export_employees.sync_detailed(client=api, format_=ExportEmployeesFormat.CSV)
    assert csv.status_code == 200 and isinstance(csv.parsed, str), csv.status_code
    assert email in csv.parsed
    step("payslip PDF (bytes) and CSV export (text)")

    # An error answer parses into the typed error envelope.
    missing = get_employee.sync_detailed(uuid.uuid4(), client=api)
    assert missing.status_code == 404 and isinstance(missing.parsed, Error), missing.content
    assert missing.parsed.code == "not_found" and missing.parsed.status == 404
    step(f'error envelope: {missing.parsed.code} "{missing.parsed.error}"')

    # 429: public requests past the address's budget; honour Retry-After, then it succeeds.
    public = Client(base_url=BASE)  # `anonymous` keeps the session cookie of its sign-in in its jar
    retry_after = 0
    for _ in range(50):
        r = get_server_time.sync_detailed(client=public)
        if r.status_code == 429:
            retry_after = int(r.headers["retry-after"])
            break
        assert r.status_code == 200, r.status_code
    assert retry_after > 0, "a 429 with Retry-After"
    time.sleep(retry_after)
    assert get_server_time.sync_detailed(client=public).status_code == 200
    step(f"429 honoured (Retry-After: {retry_after} s)")
    print("python: journey passed")


if __name__ == "__main__":
    main()
