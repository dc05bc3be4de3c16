package wirecheck_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/paygrid/payments/internal/wirecheck"
)

// recordingTB is a testing.TB that records Errorf calls instead of failing,
// so tests can assert that the checker reported a problem.
type recordingTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recordingTB) reports() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

// load returns the checker or skips the test when the reference is absent.
func load(t *testing.T) *wirecheck.Checker {
	t.Helper()
	wc := wirecheck.Load(t)
	if !wc.Available() {
		t.Skip("reference not found")
	}
	return wc
}

const goodPlatformConfig = `{
  "id": "PlatformConfig:019542f5-b3e7-1d02-0000-000000000003",
  "umaDomain": "platform.uma.domain",
  "webhookEndpoint": "https://api.example.com/webhooks",
  "supportedCurrencies": [{
    "currencyCode": "USD",
    "minAmount": 100,
    "maxAmount": 1000000,
    "requiredCounterpartyFields": [{"name": "FULL_NAME", "mandatory": true}],
    "enabledTransactionTypes": ["OUTGOING", "INCOMING"]
  }],
  "isRegulatedFinancialInstitution": false,
  "skipVerificationPaperwork": false,
  "createdAt": "2025-06-15T12:30:45Z",
  "updatedAt": "2025-06-15T12:30:45Z"
}`

// badPlatformConfig has a number where PlatformConfig.umaDomain is a string.
var badPlatformConfig = strings.Replace(goodPlatformConfig, `"platform.uma.domain"`, `42`, 1)

// jsonHandler answers every request with status and body as JSON.
func jsonHandler(status int, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})
}

// exchange sends one request through wc.Client and returns what the fake TB
// recorded; it also checks that the response reached the caller unchanged.
func exchange(t *testing.T, wc *wirecheck.Checker, h http.Handler, method, target, reqBody string, wantStatus int) []string {
	t.Helper()
	rec := &recordingTB{TB: t}
	var body io.Reader
	if reqBody != "" {
		body = strings.NewReader(reqBody)
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if reqBody != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := wc.Client(rec, h).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != wantStatus {
		t.Fatalf("status %d, want %d", resp.StatusCode, wantStatus)
	}
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	return rec.reports()
}

func TestLoad(t *testing.T) {
	wc := load(t)
	t.Logf("reference %s loaded in %v", wc.Path(), wc.LoadDuration())
	if again := wirecheck.Load(t); again != wc {
		t.Error("second Load returned another Checker; want the process-wide one")
	}
}

func TestPlatformConfig(t *testing.T) {
	wc := load(t)
	t.Run("good", func(t *testing.T) {
		rec := &recordingTB{TB: t}
		resp, err := wc.Client(rec, jsonHandler(200, goodPlatformConfig)).Get("/2025-10-13/config")
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(got) != goodPlatformConfig {
			t.Errorf("body changed in transit: %q", got)
		}
		if errs := rec.reports(); len(errs) != 0 {
			t.Errorf("good PlatformConfig reported: %v", errs)
		}
	})
	t.Run("wrong type", func(t *testing.T) {
		errs := exchange(t, wc, jsonHandler(200, badPlatformConfig), "GET", "/2025-10-13/config", "", 200)
		if len(errs) != 1 {
			t.Fatalf("got %d reports, want 1: %v", len(errs), errs)
		}
		for _, want := range []string{"GET /2025-10-13/config -> 200", "/umaDomain", "must be a string"} {
			if !strings.Contains(errs[0], want) {
				t.Errorf("report lacks %q:\n%s", want, errs[0])
			}
		}
	})
	t.Run("every problem listed", func(t *testing.T) {
		body := strings.NewReplacer(`"minAmount": 100`, `"minAmount": "100"`, `false,`, `"no",`).Replace(badPlatformConfig)
		errs := exchange(t, wc, jsonHandler(200, body), "GET", "/config", "", 200)
		if len(errs) != 1 {
			t.Fatalf("got %d reports, want 1: %v", len(errs), errs)
		}
		for _, want := range []string{"/umaDomain", "/supportedCurrencies/0/minAmount", "/isRegulatedFinancialInstitution"} {
			if !strings.Contains(errs[0], want) {
				t.Errorf("report lacks %q:\n%s", want, errs[0])
			}
		}
	})
	t.Run("undeclared status", func(t *testing.T) {
		errs := exchange(t, wc, jsonHandler(418, `{}`), "GET", "/config", "", 418)
		if len(errs) != 1 || !strings.Contains(errs[0], "status 418 is not declared") {
			t.Errorf("got %v, want one report of an undeclared status", errs)
		}
	})
}

func TestTransportRealServer(t *testing.T) {
	wc := load(t)
	srv := httptest.NewServer(jsonHandler(200, badPlatformConfig))
	defer srv.Close()
	rec := &recordingTB{TB: t}
	client := &http.Client{Transport: wc.Transport(rec, srv.Client().Transport)}
	resp, err := client.Get(srv.URL + "/2025-10-13/config")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != badPlatformConfig {
		t.Errorf("body changed in transit: %q", got)
	}
	if errs := rec.reports(); len(errs) != 1 || !strings.Contains(errs[0], "/umaDomain") {
		t.Errorf("got %v, want one report about /umaDomain", errs)
	}
}

func TestErrorBodies(t *testing.T) {
	wc := load(t)
	cases := []struct {
		name, body string
		wantErr    string // "" when the body must pass
	}{
		{"renamed code with reason", `{"status":500,"code":"SERVICE_SWITCH_ERROR","message":"switch down","reason":"switch down","details":{}}`, ""},
		{"internal error", `{"status":500,"code":"INTERNAL_ERROR","message":"boom","reason":"boom"}`, ""},
		{"reference's code", `{"status":500,"code":"GRID_SWITCH_ERROR","message":"m","reason":"m"}`, "/code"},
		{"no reason", `{"status":500,"code":"INTERNAL_ERROR","message":"m"}`, "reason"},
		{"reason differs", `{"status":500,"code":"INTERNAL_ERROR","message":"m","reason":"r"}`, "differs from message"},
		{"wrong status member", `{"status":400,"code":"INTERNAL_ERROR","message":"m","reason":"m"}`, "/status"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := exchange(t, wc, jsonHandler(500, c.body), "GET", "/2025-10-13/config", "", 500)
			switch {
			case c.wantErr == "" && len(errs) != 0:
				t.Errorf("reported: %v", errs)
			case c.wantErr != "" && (len(errs) != 1 || !strings.Contains(errs[0], c.wantErr)):
				t.Errorf("got %v, want one report mentioning %q", errs, c.wantErr)
			}
		})
	}
	t.Run("field errors and spec-only code", func(t *testing.T) {
		// INSUFFICIENT_FUNDS is a 400 code of this API (specErrorCodes) that the
		// reference's Error400 lacks; POST /sandbox/receive is this API's
		// alias of POST /sandbox/uma/receive.
		body := `{"status":400,"code":"INSUFFICIENT_FUNDS","message":"m","reason":"m",
			"details":{"errors":[{"field":"amount","constraint":{"minLength":1},"message":"too small"}]}}`
		if errs := exchange(t, wc, jsonHandler(400, body), "POST", "/2025-10-13/sandbox/receive", `{}`, 400); len(errs) != 0 {
			t.Errorf("reported: %v", errs)
		}
	})
}

func TestRoutes(t *testing.T) {
	wc := load(t)
	for _, c := range []struct {
		name, method, target string
		status               int
		wantErr              string
	}{
		{"unknown path 404", "GET", "/2025-10-13/no-such-thing", 404, ""},
		{"wrong method 405", "DELETE", "/2025-10-13/config", 405, ""},
		{"unknown path 200", "GET", "/2025-10-13/no-such-thing", 200, "no operation GET /no-such-thing"},
		{"no base path", "GET", "/config", 200, ""},
		{"other base path unstripped", "GET", "/v9/config", 200, "no operation GET /v9/config"},
	} {
		t.Run(c.name, func(t *testing.T) {
			errs := exchange(t, wc, jsonHandler(c.status, goodPlatformConfig), c.method, c.target, "", c.status)
			switch {
			case c.wantErr == "" && len(errs) != 0:
				t.Errorf("reported: %v", errs)
			case c.wantErr != "" && (len(errs) != 1 || !strings.Contains(errs[0], c.wantErr)):
				t.Errorf("got %v, want one report mentioning %q", errs, c.wantErr)
			}
		})
	}
	t.Run("WithBasePath", func(t *testing.T) {
		errs := exchange(t, wc.WithBasePath("/v9"), jsonHandler(200, goodPlatformConfig), "GET", "/v9/config", "", 200)
		if len(errs) != 0 {
			t.Errorf("reported: %v", errs)
		}
	})
}

func TestRequests(t *testing.T) {
	wc := load(t)
	const badPatch = `{"umaDomain": 7, "skipVerificationPaperwork": "yes"}`
	t.Run("accepted bad request", func(t *testing.T) {
		errs := exchange(t, wc, jsonHandler(200, goodPlatformConfig), "PATCH", "/2025-10-13/config", badPatch, 200)
		if len(errs) != 1 {
			t.Fatalf("got %d reports, want 1: %v", len(errs), errs)
		}
		for _, want := range []string{"request body at /umaDomain", "request body at /skipVerificationPaperwork"} {
			if !strings.Contains(errs[0], want) {
				t.Errorf("report lacks %q:\n%s", want, errs[0])
			}
		}
	})
	t.Run("rejected bad request", func(t *testing.T) {
		body := `{"status":400,"code":"INVALID_INPUT","message":"bad","reason":"bad"}`
		if errs := exchange(t, wc, jsonHandler(400, body), "PATCH", "/2025-10-13/config", badPatch, 400); len(errs) != 0 {
			t.Errorf("a 400 answer to an invalid request was reported: %v", errs)
		}
	})
	t.Run("good request", func(t *testing.T) {
		good := `{"umaDomain": "mycompany.com", "skipVerificationPaperwork": true}`
		if errs := exchange(t, wc, jsonHandler(200, goodPlatformConfig), "PATCH", "/2025-10-13/config", good, 200); len(errs) != 0 {
			t.Errorf("reported: %v", errs)
		}
	})
	t.Run("query parameter", func(t *testing.T) {
		errs := exchange(t, wc, jsonHandler(200, `{"data":[],"hasMore":false}`), "GET", "/2025-10-13/transactions?limit=many", "", 200)
		if len(errs) != 1 || !strings.Contains(errs[0], `query parameter "limit"`) {
			t.Errorf("got %v, want one report about the limit parameter", errs)
		}
	})
}

func TestSkip(t *testing.T) {
	wc := load(t)
	rec := &recordingTB{TB: t}
	client := wc.Client(rec, jsonHandler(200, badPlatformConfig))

	req, _ := http.NewRequest("GET", "/config", nil)
	resp, err := client.Do(wirecheck.Skip(req))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if errs := rec.reports(); len(errs) != 0 {
		t.Errorf("Skip: reported %v", errs)
	}

	req, _ = http.NewRequest("PATCH", "/config", strings.NewReader(`{"umaDomain":7}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err = wc.Client(rec, jsonHandler(200, goodPlatformConfig)).Do(wirecheck.SkipRequest(req))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if errs := rec.reports(); len(errs) != 0 {
		t.Errorf("SkipRequest: reported %v", errs)
	}
}

// TestOpenAPI31 checks the reference's 3.1 constructs through Check.
func TestOpenAPI31(t *testing.T) {
	wc := load(t)
	rate := func(v string) string {
		return `{"data":[{"sourceCurrency":{"code":"USD"},"destinationCurrency":{"code":"EUR"},"destinationPaymentRail":"SEPA",
			"minSendingAmount":1,"maxSendingAmount":2,"sendingAmount":1,"receivingAmount":1,"exchangeRate":` + v +
			`,"fees":{},"updatedAt":"2025-02-05T12:00:00Z"}]}`
	}
	reset := func(enrollment, expires string) string {
		return `{"status":"INITIATED","factor":"SMS_OTP","enrollmentStatus":` + enrollment + `,"expiresAt":` + expires + `}`
	}
	method := func(extra string) string {
		return `{"id":"AuthMethod:1","accountId":"InternalAccount:1","type":"EMAIL_OTP","nickname":"a@b.co",
			"createdAt":"2026-04-08T15:30:01Z","updatedAt":"2026-04-08T15:30:01Z"` + extra + `}`
	}
	for _, c := range []struct {
		name, method, target, reqBody string
		status                        int
		body, wantErr                 string
	}{
		{"exclusiveMinimum number ok", "GET", "/exchange-rates", "", 200, rate("1.08"), ""},
		{"exclusiveMinimum number violated", "GET", "/exchange-rates", "", 200, rate("0"), "/data/0/exchangeRate"},
		{"type array and enum with null", "GET", "/sca/factors/reset/r1?customerId=c", "", 200, reset("null", `"2025-10-03T12:15:00Z"`), ""},
		{"enum with null violated", "GET", "/sca/factors/reset/r1?customerId=c", "", 200, reset(`"LATER"`, `"2025-10-03T12:15:00Z"`), "/enrollmentStatus"},
		{"date-time format", "GET", "/sca/factors/reset/r1?customerId=c", "", 200, reset("null", `"soon"`), "/expiresAt"},
		{"unevaluatedProperties ok", "POST", "/auth/credentials", `{"type":"EMAIL_OTP","accountId":"InternalAccount:1"}`, 201, method(`,"otpEncryptionTargetBundle":"x"`), ""},
		{"unevaluatedProperties violated", "POST", "/auth/credentials", `{"type":"EMAIL_OTP","accountId":"InternalAccount:1"}`, 201, method(`,"bogus":1`), "/bogus"},
	} {
		t.Run(c.name, func(t *testing.T) {
			errs := exchange(t, wc, jsonHandler(c.status, c.body), c.method, c.target, c.reqBody, c.status)
			switch {
			case c.wantErr == "" && len(errs) != 0:
				t.Errorf("reported: %v", errs)
			case c.wantErr != "" && (len(errs) != 1 || !strings.Contains(errs[0], c.wantErr)):
				t.Errorf("got %v, want one report mentioning %q", errs, c.wantErr)
			}
		})
	}
}

func TestRenames(t *testing.T) {
	wc := load(t)
	data, err := json.Marshal(wc.Document())
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, old := range []string{"Grid-Wallet-Signature", "X-Grid-Signature", "GRID_SWITCH_ERROR", "CLOSED_BY_GRID", "GRID_INTERNAL_ACCOUNT", "gridApi", "gridOperationsStatus"} {
		if strings.Contains(text, old) {
			t.Errorf("adapted reference still mentions %s", old)
		}
	}
	for _, name := range []string{"Service-Wallet-Signature", "X-Service-Signature", "SERVICE_SWITCH_ERROR", "CLOSED_BY_SERVICE", "SERVICE_INTERNAL_ACCOUNT",
		"serviceApiMultiplier", "serviceApiFixedFee", "serviceApiVariableFeeRate", "serviceApiVariableFeeAmount", "serviceOperationsStatus"} {
		if !strings.Contains(text, name) {
			t.Errorf("adapted reference lacks %s", name)
		}
	}
}

func TestNilChecker(t *testing.T) {
	var wc *wirecheck.Checker
	if wc.Available() || wc.Document() != nil || wc.Path() != "" || wc.WithBasePath("/x") != nil {
		t.Error("nil Checker should report nothing available")
	}
	resp, err := wc.Client(t, jsonHandler(200, badPlatformConfig)).Get("/config")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != badPlatformConfig {
		t.Errorf("body %q", got)
	}
	wc.Check(t, &http.Request{}, nil, &http.Response{StatusCode: 200}, nil) // no-op, no panic
	if tr := wc.Transport(t, http.DefaultTransport); tr != http.DefaultTransport {
		t.Error("nil Checker's Transport should be next itself")
	}
}

// TestParallel shares one Checker between parallel tests; run with -race.
func TestParallel(t *testing.T) {
	wc := load(t)
	for i := range 8 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			good, bad := wc.Client(t, jsonHandler(200, goodPlatformConfig)), &recordingTB{TB: t}
			badClient := wc.Client(bad, jsonHandler(200, badPlatformConfig))
			for range 10 {
				for _, c := range []*http.Client{good, badClient} {
					resp, err := c.Get("/2025-10-13/config")
					if err != nil {
						t.Fatal(err)
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
			if n := len(bad.reports()); n != 10 {
				t.Errorf("bad client: %d reports, want 10", n)
			}
		})
	}
}

func BenchmarkCheck(b *testing.B) {
	wc := wirecheck.Load(b)
	if !wc.Available() {
		b.Skip("reference not found")
	}
	client := wc.Client(b, jsonHandler(200, goodPlatformConfig))
	for b.Loop() {
		resp, err := client.Get("/2025-10-13/config")
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}
