package dashboard_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/dashboard"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/sandbox"
)

var ctx = context.Background()

// env is a sandbox engine on a test clock with the dashboard mounted at
// /dashboard/ of a test server, and two API tokens: one with every
// permission, one that may only view.
type env struct {
	eng           *payments.Engine
	clock         *sandbox.Clock
	controls      *sandbox.Controls // freeze and resume the clock (Options.Freeze, Resume, Frozen)
	api           *httpapi.Handler  // the API at /api/, whose requests the request log page shows
	d             *dashboard.Dashboard
	srv           *httptest.Server
	admin, viewer *payments.CreatedToken
}

// newEnv starts an env; notify, when set, is the engine's Notifier, and
// mutate adjusts the dashboard's options.
func newEnv(t *testing.T, notify payments.NotifierFunc, mutate ...func(*dashboard.Options)) *env {
	t.Helper()
	var n payments.Notifier
	if notify != nil {
		n = notify
	}
	return newEnvNotifier(t, n, mutate...)
}

// newEnvNotifier is newEnv with any Notifier (nil: the sandbox's).
func newEnvNotifier(t *testing.T, notify payments.Notifier, mutate ...func(*dashboard.Options)) *env {
	t.Helper()
	eng, clock, err := sandbox.New(func(c *payments.Config) {
		c.EventHistory = true
		if notify != nil {
			c.Notifier = notify
		}
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = eng.Close() })
	e := &env{eng: eng, clock: clock, controls: sandbox.NewControls(eng, clock),
		api: httpapi.New(eng, httpapi.Config{BasePath: "/api"})}
	e.admin, err = eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "admin",
		Permissions: []payments.Permission{payments.PermView, payments.PermTransact, payments.PermManage}})
	require.NoError(t, err)
	e.viewer, err = eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "viewer", Permissions: []payments.Permission{payments.PermView}})
	require.NoError(t, err)
	opts := dashboard.Options{Engine: eng, Advance: func(ctx context.Context, d time.Duration) error {
		clock.Advance(d)
		if _, err := eng.ProcessDue(ctx); err != nil {
			return err
		}
		_, err := eng.Webhooks.Flush(ctx)
		return err
	}, Freeze: e.controls.Freeze, Resume: e.controls.Resume, Frozen: e.controls.Frozen, Requests: e.api.Requests,
		RequestStream: e.api.RequestStream(),
		Trigger:       e.controls.Trigger, TriggerTypes: sandbox.TriggerTypes()}
	for _, m := range mutate {
		m(&opts)
	}
	e.d = dashboard.New(opts)
	mux := http.NewServeMux()
	mux.Handle("/dashboard/", e.d)
	mux.Handle("/api/", e.api)
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	return e
}

// seeded is what seed created.
type seeded struct {
	customer    *payments.Customer
	account     string // the customer's USD internal account
	external    *payments.ExternalAccount
	executed    *payments.Quote // executed: its transaction moved money out
	pending     *payments.Quote // not executed, expires in minutes
	transaction *payments.Transaction
}

// seed creates, through the engine, a customer with a funded USD account,
// an external account, an executed quote to it and a pending one, and
// delivers the events.
func (e *env) seed(t *testing.T) seeded {
	t.Helper()
	var s seeded
	var err error
	s.customer, err = e.eng.Customers.Create(ctx, payments.CustomerInput{CustomerType: payments.CustomerIndividual,
		Identifier: "123-45-6789", Currencies: []string{"USD"},
		AgreementConsents: []payments.AgreementConsent{{Type: payments.AgreementProviderEndUserTerms,
			TermsVersion: payments.CurrentEndUserTerms.Version, AcceptedAt: time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC),
			IPAddress: "203.0.113.7", AcceptanceMethod: "CHECKBOX"}},
		Profile: customers.Profile{FullName: "Ada Lovelace", BirthDate: "1990-01-15", Nationality: "US", IDType: "SSN",
			Address: &customers.Address{Line1: "1 Main St", City: "Austin", State: "TX", PostalCode: "78701", Country: "US"}}})
	require.NoError(t, err)
	accts, err := e.eng.Accounts.ListInternal(ctx, payments.InternalAccountFilter{CustomerID: s.customer.ID}, payments.CustomerScope, payments.ListParams{})
	require.NoError(t, err)
	s.account = accts.Data[0].ID
	_, err = e.eng.Sandbox.Fund(ctx, s.account, 100_000)
	require.NoError(t, err)
	info, _ := json.Marshal(map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": "444555001", "routingNumber": "021000021",
		"beneficiary": map[string]any{"beneficiaryType": "INDIVIDUAL", "fullName": "Ada Lovelace"}})
	s.external, err = e.eng.Accounts.CreateExternal(ctx, payments.ExternalAccountInput{CustomerID: s.customer.ID, Currency: "USD", AccountInfo: info}, payments.CustomerScope)
	require.NoError(t, err)
	quote := func(amount int64, execute bool) *payments.Quote {
		q, err := e.eng.Quotes.Create(ctx, payments.QuoteRequest{Source: payments.QuoteSource{SourceType: "ACCOUNT", AccountID: s.account},
			Destination:        payments.QuoteDestination{DestinationType: "ACCOUNT", AccountID: s.external.ID},
			LockedCurrencySide: "SENDING", LockedCurrencyAmount: amount, ImmediatelyExecute: execute})
		require.NoError(t, err)
		return q
	}
	s.executed, s.pending = quote(12_345, true), quote(2_000, false)
	s.transaction, err = e.eng.Transactions.Get(ctx, s.executed.TransactionID)
	require.NoError(t, err)
	_, err = e.eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	return s
}

// get fetches path with Basic credentials tok (nil: none) and returns the
// status and body.
func (e *env) get(t *testing.T, path string, tok *payments.CreatedToken) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	require.NoError(t, err)
	if tok != nil {
		req.SetBasicAuth(tok.ClientID, tok.ClientSecret)
	}
	return e.do(t, req)
}

// post sends form to path with Basic credentials tok and headers h, not
// following redirects.
func (e *env) post(t *testing.T, path string, tok *payments.CreatedToken, form url.Values, h map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if tok != nil {
		req.SetBasicAuth(tok.ClientID, tok.ClientSecret)
	}
	for k, v := range h {
		req.Header.Set(k, v)
	}
	res, err := noRedirect.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	return res
}

// noRedirect is a client that returns redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func (e *env) do(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(b)
}

// csrfIn returns the caller's form token in page.
func csrfIn(t *testing.T, page string) string {
	t.Helper()
	m := regexp.MustCompile(`name="csrf-token" content="([^"]+)"`).FindStringSubmatch(page)
	require.NotNil(t, m, "no form token in the page")
	return m[1]
}

// row returns the table row of page that mentions id.
func row(t *testing.T, page, id string) string {
	t.Helper()
	for _, r := range strings.Split(page, "<tr>") {
		if strings.Contains(r, id) {
			r, _, _ = strings.Cut(r, "</tr>")
			return r
		}
	}
	t.Fatalf("no row mentions %s", id)
	return ""
}

// errTemporary makes a delivery fail in a way that is retried.
var errTemporary = errors.New("endpoint answered 503")
