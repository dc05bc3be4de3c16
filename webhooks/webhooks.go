// Package webhooks delivers engine events to the platform's webhook endpoint
// over HTTP, signed with ECDSA P-256, and lets a receiving Go service verify
// them. It is its own package because it is the one adapter that dials out
// to the platform's servers; the engine only sees it as a payments.Notifier
// with the payments.WebhookSender capability.
//
// Delivery: POST of the event envelope {id, type, timestamp, data} as JSON,
// with header X-Service-Signature: {"v":"1","s":"<base64 DER signature>"}
// over the exact body bytes (SHA-256). The timestamp is when this try was
// sent, on the engine's clock; the id is the event's, the same on every
// try. 2xx and 409 (already processed) end delivery; anything else,
// including timeouts, is retried by the engine's outbox with exponential
// backoff (for up to a week), each retry stamped with its own send time.
//
// A receiver verifies with the platform's public key:
//
//	body, _ := io.ReadAll(r.Body)
//	if err := webhooks.Verify(pub, body, r.Header.Get(webhooks.SignatureHeader)); err != nil {
//		http.Error(w, "bad signature", http.StatusUnauthorized)
//		return
//	}
//
// The signature covers the body alone, so Verify also refuses a delivery
// whose timestamp (when it was sent) is more than DefaultTolerance
// (5 minutes) old (ErrStaleDelivery): a captured delivery sent again later
// does not pass, while the engine's retries, each stamped when sent, do
// however late they come. A Verifier sets another Tolerance or clock
// (Now; a receiver of a sandbox whose clock is moved reads that clock).
// Within the tolerance a replay still verifies, and the engine's retries
// send the same event again: deduplicate on the event id (the envelope's
// id, the same on every try), for example by recording the ids processed
// and answering 200 or 409 to one already seen without acting on it again.
//
// A Sender with Config.Brand speaks that brand instead of the default
// "Service" (see payments.Brand): the header is X-<Brand>-Signature
// (SignatureHeaderFor), and the codes and fields of the envelope that carry
// the word carry the brand, as the branded API answers them.
package webhooks

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/paygrid/payments"
)

// SignatureHeader carries the signature of a delivery of the default brand.
const SignatureHeader = payments.WebhookSignatureHeader

// SignatureHeaderFor names the signature header of a Sender whose
// Config.Brand is brand: "X-<Brand>-Signature", SignatureHeader for "" or
// "Service". A brand New refuses names SignatureHeader too.
func SignatureHeaderFor(brand string) string {
	b, _ := payments.NewBrand(brand)
	return b.WebhookSignatureHeader()
}

// Config configures a Sender. Only Key is required.
type Config struct {
	// Key signs deliveries. Generate one with GenerateKey and keep it; the
	// platform verifies with its public half (PublicKeyPEM).
	Key *ecdsa.PrivateKey
	// Timeout bounds one delivery attempt. Zero means 10 seconds.
	Timeout time.Duration
	// AllowPrivate permits endpoints on loopback, private, link-local and
	// unspecified addresses. Off (the library default), such endpoints are
	// refused when dialled, which also defeats DNS rebinding. The sandbox
	// server turns it on so a local receiver works.
	AllowPrivate bool
	// Transport overrides the HTTP transport (tests). Nil builds one whose
	// dialer enforces AllowPrivate.
	Transport http.RoundTripper
	// Brand is the name deliveries carry where they name the platform's
	// maker, as httpapi.Config.Brand: the signature header is
	// X-<Brand>-Signature and the envelope's codes and fields carry the
	// brand (payments.Brand). "" means payments.DefaultBrand.
	Brand string
}

// Sender signs and POSTs events. It implements payments.Notifier and
// payments.WebhookSender.
type Sender struct {
	key    *ecdsa.PrivateKey
	client *http.Client
	brand  *payments.Brand // nil: the default brand
}

var (
	_ payments.Notifier      = (*Sender)(nil)
	_ payments.WebhookSender = (*Sender)(nil)
)

// ErrPrivateAddress is returned for endpoints on non-public addresses when
// Config.AllowPrivate is off.
var ErrPrivateAddress = errors.New("webhooks: endpoint resolves to a non-public address")

// New returns a Sender.
func New(cfg Config) (*Sender, error) {
	if cfg.Key == nil || cfg.Key.Curve != elliptic.P256() {
		return nil, errors.New("webhooks: Config.Key must be a P-256 private key")
	}
	brand, err := payments.NewBrand(cfg.Brand)
	if err != nil {
		return nil, fmt.Errorf("webhooks: Config.Brand: %w", err)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	tr := cfg.Transport
	if tr == nil {
		d := &net.Dialer{Timeout: cfg.Timeout}
		if !cfg.AllowPrivate {
			d.Control = refusePrivate
		}
		tr = &http.Transport{DialContext: d.DialContext, TLSHandshakeTimeout: cfg.Timeout, ResponseHeaderTimeout: cfg.Timeout, MaxIdleConnsPerHost: 4}
	}
	return &Sender{key: cfg.Key, brand: brand, client: &http.Client{Transport: tr, Timeout: cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}, nil
}

// Notify is required by payments.Notifier; without an endpoint there is
// nowhere to deliver, so the event is dropped. The engine calls Send instead
// whenever a webhook endpoint is configured.
func (s *Sender) Notify(context.Context, payments.Event) error { return nil }

// TraceParentHeader carries the W3C trace context of a delivery whose event
// was emitted under a trace (payments.TraceParentFrom): a receiver that
// traces continues the trace of the operation that emitted the event. It
// is not signed.
const TraceParentHeader = "traceparent"

// DropsWithoutEndpoint reports that Notify drops every event
// (payments.EndpointOnly): while no webhook endpoint is configured, an
// engine that keeps no event history writes no events at all.
func (s *Sender) DropsWithoutEndpoint() bool { return true }

// Send delivers one event to endpoint and reports what the endpoint answered.
// The traceparent ctx carries (payments.TraceParentFrom), if any, goes in
// the traceparent header.
// A 2xx or 409 answer is success; other answers and transport failures are
// errors (retryable), except a refused private address, which wraps
// payments.ErrPermanent.
func (s *Sender) Send(ctx context.Context, endpoint string, ev payments.Event) (payments.Delivery, error) {
	body, err := json.Marshal(ev)
	if err != nil {
		return payments.Delivery{}, err
	}
	body = s.brand.Outgoing(body)
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return payments.Delivery{}, fmt.Errorf("%w: invalid webhook endpoint %q", payments.ErrPermanent, endpoint)
	}
	sig, err := s.Sign(body)
	if err != nil {
		return payments.Delivery{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return payments.Delivery{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(s.SignatureHeader(), sig)
	if tp := payments.TraceParentFrom(ctx); tp != "" {
		req.Header.Set(TraceParentHeader, tp)
	}
	res, err := s.client.Do(req)
	if err != nil {
		if errors.Is(err, ErrPrivateAddress) {
			return payments.Delivery{}, errors.Join(payments.ErrPermanent, err)
		}
		return payments.Delivery{}, err
	}
	defer res.Body.Close()
	reply, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	d := payments.Delivery{Status: res.StatusCode, Body: string(reply)}
	if res.StatusCode/100 == 2 || res.StatusCode == http.StatusConflict {
		return d, nil
	}
	return d, fmt.Errorf("webhook endpoint answered %d", res.StatusCode)
}

// SignatureHeader names the header s signs deliveries in: SignatureHeader,
// or X-<Brand>-Signature for a Config.Brand.
func (s *Sender) SignatureHeader() string { return s.brand.WebhookSignatureHeader() }

// Sign returns the signature header value for body.
func (s *Sender) Sign(body []byte) (string, error) {
	sum := sha256.Sum256(body)
	der, err := ecdsa.SignASN1(rand.Reader, s.key, sum[:])
	if err != nil {
		return "", err
	}
	h, _ := json.Marshal(struct {
		V string `json:"v"`
		S string `json:"s"`
	}{"1", base64.StdEncoding.EncodeToString(der)})
	return string(h), nil
}

// PublicKey returns the verification key.
func (s *Sender) PublicKey() *ecdsa.PublicKey { return &s.key.PublicKey }

// ErrBadSignature is returned by Verify for any signature that does not
// verify.
var ErrBadSignature = errors.New("webhooks: invalid signature")

// ErrStaleDelivery is returned by Verify and Verifier.Verify for a delivery
// whose signature verifies but whose timestamp (when it was sent) lies
// further in the past than the tolerance: most likely a captured delivery
// sent again.
// The receiver answers it as it answers a bad signature.
var ErrStaleDelivery = errors.New("webhooks: delivery too old")

// ErrNoTimestamp is returned by Verify and Verifier.Verify for a delivery
// whose signature verifies but whose body carries no readable RFC 3339
// timestamp member, so its age cannot be checked. A Verifier with a
// negative Tolerance does not read the timestamp and never returns it.
var ErrNoTimestamp = errors.New("webhooks: delivery has no timestamp")

// DefaultTolerance is how old a delivery's timestamp (when it was sent)
// may be for Verify to accept it: 5 minutes, as stripe-go's
// webhook.DefaultTolerance.
const DefaultTolerance = 5 * time.Minute

// Verifier checks deliveries: the signature over the raw body and the age
// of the delivery, from the time it was sent that the body carries. The zero Verifier with Key set checks
// against DefaultTolerance and the wall clock, as Verify does.
type Verifier struct {
	// Key is the platform's public key (ParsePublicKeyPEM of the PEM the
	// server prints).
	Key *ecdsa.PublicKey
	// Tolerance is how far the delivery's timestamp may lie before Now:
	// zero means DefaultTolerance, a negative value turns the age check
	// off (signature only). Each retry is stamped when it is sent, so the
	// tolerance bounds the delay in transit and the clocks' difference,
	// not how late a retry comes.
	Tolerance time.Duration
	// Now reads the clock the age is measured on; nil means time.Now. A
	// receiver of a sandbox whose clock is moved or frozen sets it to the
	// sandbox's clock, which stamps the deliveries.
	Now func() time.Time
}

// Verify checks a delivery's signature header against its raw body with
// the platform's key pub, then that its timestamp (when it was sent) is
// at most DefaultTolerance old on the wall clock. It accepts the JSON header form
// {"v":"1","s":"<base64>"} and a bare base64 signature. It returns
// ErrBadSignature, ErrNoTimestamp or ErrStaleDelivery; Verifier sets
// another tolerance or clock.
func Verify(pub *ecdsa.PublicKey, body []byte, header string) error {
	return Verifier{Key: pub}.Verify(body, header)
}

// Verify checks body's signature header as the package's Verify does, and
// the delivery's timestamp against v.Tolerance and v.Now.
func (v Verifier) Verify(body []byte, header string) error {
	if err := verifySignature(v.Key, body, header); err != nil {
		return err
	}
	if v.Tolerance < 0 {
		return nil
	}
	tol := v.Tolerance
	if tol == 0 {
		tol = DefaultTolerance
	}
	var env struct {
		Timestamp string `json:"timestamp"`
	}
	if json.Unmarshal(body, &env) != nil || env.Timestamp == "" {
		return ErrNoTimestamp
	}
	at, err := time.Parse(time.RFC3339Nano, env.Timestamp)
	if err != nil {
		return ErrNoTimestamp
	}
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	if age := now().Sub(at); age > tol {
		return fmt.Errorf("%w: delivery timestamp %s is %s old, more than %s", ErrStaleDelivery, env.Timestamp, age.Round(time.Second), tol)
	}
	return nil
}

func verifySignature(pub *ecdsa.PublicKey, body []byte, header string) error {
	if pub == nil {
		return fmt.Errorf("%w: no key to verify with", ErrBadSignature)
	}
	sigB64 := header
	var h struct {
		V string `json:"v"`
		S string `json:"s"`
	}
	if json.Unmarshal([]byte(header), &h) == nil && h.S != "" {
		if h.V != "1" {
			return fmt.Errorf("%w: unknown version %q", ErrBadSignature, h.V)
		}
		sigB64 = h.S
	}
	der, err := base64.StdEncoding.DecodeString(sigB64)
	if err != nil || len(der) == 0 {
		return fmt.Errorf("%w: not base64", ErrBadSignature)
	}
	sum := sha256.Sum256(body)
	if !ecdsa.VerifyASN1(pub, sum[:], der) {
		return ErrBadSignature
	}
	return nil
}

// GenerateKey returns a new P-256 signing key.
func GenerateKey() (*ecdsa.PrivateKey, error) { return ecdsa.GenerateKey(elliptic.P256(), rand.Reader) }

// PublicKeyPEM encodes a public key as a PEM "PUBLIC KEY" (SPKI) block, the
// form a platform stores to verify deliveries.
func PublicKeyPEM(pub *ecdsa.PublicKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", err
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})), nil
}

// ParsePublicKeyPEM decodes a PEM SPKI P-256 public key.
func ParsePublicKeyPEM(s string) (*ecdsa.PublicKey, error) {
	b, _ := pem.Decode([]byte(s))
	if b == nil {
		return nil, errors.New("webhooks: no PEM block")
	}
	k, err := x509.ParsePKIXPublicKey(b.Bytes)
	if err != nil {
		return nil, err
	}
	pub, ok := k.(*ecdsa.PublicKey)
	if !ok || pub.Curve != elliptic.P256() {
		return nil, errors.New("webhooks: not a P-256 public key")
	}
	return pub, nil
}

// MarshalPrivateKeyPEM and ParsePrivateKeyPEM persist a signing key (PKCS#8).
func MarshalPrivateKeyPEM(k *ecdsa.PrivateKey) (string, error) {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return "", err
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), nil
}

// ParsePrivateKeyPEM decodes a PKCS#8 P-256 private key.
func ParsePrivateKeyPEM(s string) (*ecdsa.PrivateKey, error) {
	b, _ := pem.Decode([]byte(s))
	if b == nil {
		return nil, errors.New("webhooks: no PEM block")
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, err
	}
	pk, ok := k.(*ecdsa.PrivateKey)
	if !ok || pk.Curve != elliptic.P256() {
		return nil, errors.New("webhooks: not a P-256 private key")
	}
	return pk, nil
}
