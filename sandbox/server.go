package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/httpapi"
	"github.com/paygrid/payments/webhooks"
)

// BasePath is the path prefix of the API a Server serves.
const BasePath = "/2025-10-13"

var (
	_ httpapi.TestClock    = (*Controls)(nil)
	_ httpapi.EventTrigger = (*Controls)(nil)
)

// Server is a running sandbox for the tests of a service that calls the
// payments API: the whole REST API (and the /sandbox/ clock and state
// routes) on a local httptest.Server over its own in-memory engine, with a
// platform seeded to deliver its signed webhooks to Webhooks, an API token
// with every permission, and a frozen Clock. Servers share nothing, so each
// test may run its own in parallel.
type Server struct {
	// Server is the HTTP server; its URL is the root.
	*httptest.Server
	// BaseURL is the API's address: URL followed by BasePath.
	BaseURL string
	// ClientID and ClientSecret are the API token's Basic credentials.
	ClientID, ClientSecret string
	// Engine is the engine behind the API.
	Engine *payments.Engine
	// Clock is the engine's clock, frozen at 2025-10-13T12:00:00Z at start.
	Clock *Clock
	// Controls move Clock applying what falls due (also over HTTP, POST
	// /sandbox/clock/advance).
	Controls *Controls
	// Webhooks receives and verifies the platform's webhooks.
	Webhooks *WebhookReceiver
}

// NewServer starts a Server for the test t and closes it when t ends;
// mutate may adjust the engine configuration (as for New). It fails t when
// the server cannot start.
func NewServer(t testing.TB, mutate ...func(*payments.Config)) *Server {
	t.Helper()
	s, err := StartServer(mutate...)
	if err != nil {
		t.Fatalf("sandbox.NewServer: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// StartServer starts a Server (NewServer without a test, for examples and
// programs); Close it when done.
func StartServer(mutate ...func(*payments.Config)) (*Server, error) {
	key, err := webhooks.GenerateKey()
	if err != nil {
		return nil, err
	}
	sender, err := webhooks.New(webhooks.Config{Key: key, AllowPrivate: true})
	if err != nil {
		return nil, err
	}
	recv := NewWebhookReceiver(sender.PublicKey())
	eng, clock, err := New(append([]func(*payments.Config){func(c *payments.Config) {
		c.Notifier = sender
		c.Platform.WebhookEndpoint = recv.URL
	}}, mutate...)...)
	if err != nil {
		recv.Close()
		return nil, err
	}
	tok, err := eng.Platform.CreateToken(context.Background(), payments.CreateTokenRequest{Name: "sandbox",
		Permissions: []payments.Permission{payments.PermView, payments.PermTransact, payments.PermManage}})
	if err != nil {
		_ = eng.Close()
		recv.Close()
		return nil, err
	}
	ctl := NewControls(eng, clock)
	api := httpapi.New(eng, httpapi.Config{BasePath: BasePath, TestClock: ctl})
	srv := httptest.NewServer(api)
	return &Server{Server: srv, BaseURL: srv.URL + BasePath, ClientID: tok.ClientID, ClientSecret: tok.ClientSecret,
		Engine: eng, Clock: clock, Controls: ctl, Webhooks: recv}, nil
}

// Close stops the server, the engine and the webhook receiver.
func (s *Server) Close() {
	// httptest's Close waits for every request: end the streams first.
	s.Server.Config.Handler.(*httpapi.Handler).Close()
	s.Server.Close()
	_ = s.Engine.Close()
	s.Webhooks.Close()
}

// RunDue applies the work due on the clock now and delivers the webhooks
// due, so that Webhooks holds every event written so far.
func (s *Server) RunDue() error {
	return s.Engine.Sandbox.RunDue(context.Background())
}

// APIError is a non-2xx answer of Call: the status and the error body's
// code and message.
type APIError struct {
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error returns "status code: message".
func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// Call sends method path (relative to BaseURL, such as "/customers") with
// the server's token and in as the JSON body (none when nil), decodes a 2xx
// answer into out (when not nil) and returns an *APIError for any other.
// headers are name, value pairs (an Idempotency-Key, ...).
func (s *Server) Call(method, path string, in, out any, headers ...string) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.BaseURL+path, body)
	if err != nil {
		return err
	}
	req.SetBasicAuth(s.ClientID, s.ClientSecret)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := s.Client().Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		e := &APIError{Status: res.StatusCode}
		if json.Unmarshal(raw, e) != nil || e.Code == "" {
			e.Message = string(raw)
		}
		return e
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, out)
}
