package wirecheck

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Transport returns a RoundTripper that sends each request through next
// (http.DefaultTransport when nil), buffers the request and response bodies,
// runs [Checker.Check] on the exchange, and returns the response unchanged
// (its body rewound). Problems are reported with tb.Errorf; transport errors
// from next are returned as they are, unchecked. On a nil Checker it returns
// next itself.
func (c *Checker) Transport(tb testing.TB, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	if c == nil {
		return next
	}
	return &checkingTransport{c: c, tb: tb, next: next}
}

// Client returns an http.Client that serves every request in-process with
// handler (no network; relative URLs such as "/2025-10-13/config" work) and
// checks each exchange as [Checker.Transport] does. On a nil Checker the
// client serves without checking. It does not follow redirects, so tests see
// the handler's responses as they are.
func (c *Checker) Client(tb testing.TB, handler http.Handler) *http.Client {
	return &http.Client{
		Transport: c.Transport(tb, HandlerTransport(handler)),
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

type checkingTransport struct {
	c    *Checker
	tb   testing.TB
	next http.RoundTripper
}

func (t *checkingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	out := req
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		reqBody, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		// A RoundTripper must not modify the caller's request.
		out = req.Clone(req.Context())
		out.Body = io.NopCloser(bytes.NewReader(reqBody))
		out.ContentLength = int64(len(reqBody))
	}
	resp, err := t.next.RoundTrip(out)
	if err != nil {
		return resp, err
	}
	var respBody []byte
	if resp.Body != nil {
		respBody, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(respBody))
		if err != nil {
			return resp, err
		}
	}
	t.c.Check(t.tb, req, reqBody, resp, respBody)
	return resp, nil
}

// HandlerTransport returns a RoundTripper that serves requests in-process
// with handler through an httptest.ResponseRecorder. Requests without a host
// are given "example.com".
func HandlerTransport(handler http.Handler) http.RoundTripper {
	return handlerTransport{handler}
}

type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	sr := req.Clone(req.Context())
	if sr.Host == "" {
		sr.Host = req.URL.Host
	}
	if sr.Host == "" {
		sr.Host = "example.com"
	}
	// A server sees only the path and query in its URL.
	u := *req.URL
	u.Scheme, u.Opaque, u.User, u.Host, u.Fragment, u.RawFragment = "", "", nil, "", "", ""
	sr.URL = &u
	sr.RequestURI = req.URL.RequestURI()
	if sr.RemoteAddr == "" {
		sr.RemoteAddr = "192.0.2.1:1234"
	}
	if sr.Body == nil {
		sr.Body = http.NoBody
	}
	if sr.Proto == "" {
		sr.Proto, sr.ProtoMajor, sr.ProtoMinor = "HTTP/1.1", 1, 1
	}
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, sr)
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}
