package webhooks_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/webhooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type received struct {
	body        []byte
	sig         string
	traceParent string
}

// receiver is a real HTTP endpoint that records deliveries and answers with
// the status the test sets.
func receiver(t *testing.T) (*httptest.Server, func() []received, func(int)) {
	var mu sync.Mutex
	var got []received
	status := 200
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		got = append(got, received{b, r.Header.Get(webhooks.SignatureHeader), r.Header.Get("traceparent")})
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []received { mu.Lock(); defer mu.Unlock(); return append([]received(nil), got...) },
		func(s int) { mu.Lock(); status = s; mu.Unlock() }
}

func newSender(t *testing.T, allowPrivate bool) (*webhooks.Sender, *ecdsa.PrivateKey) {
	key, err := webhooks.GenerateKey()
	require.NoError(t, err)
	s, err := webhooks.New(webhooks.Config{Key: key, AllowPrivate: allowPrivate, Timeout: 2 * time.Second})
	require.NoError(t, err)
	return s, key
}

var ev = payments.Event{ID: "Webhook:0197", Type: "OUTGOING_PAYMENT.COMPLETED", Timestamp: time.Date(2025, 10, 13, 12, 0, 0, 0, time.UTC), Data: json.RawMessage(`{"id":"Transaction:1"}`)}

func TestSend_SignedEnvelopeVerifies(t *testing.T) {
	srv, got, _ := receiver(t)
	s, key := newSender(t, true)
	d, err := s.Send(context.Background(), srv.URL, ev)
	require.NoError(t, err)
	assert.Equal(t, 200, d.Status)
	require.Len(t, got(), 1)
	r := got()[0]
	var env map[string]any
	require.NoError(t, json.Unmarshal(r.body, &env))
	assert.Equal(t, "Webhook:0197", env["id"])
	assert.Equal(t, "OUTGOING_PAYMENT.COMPLETED", env["type"])
	assert.Equal(t, "2025-10-13T12:00:00Z", env["timestamp"])
	assert.Equal(t, map[string]any{"id": "Transaction:1"}, env["data"])

	// The event is of 2025: verified on a clock of its time.
	at := webhooks.Verifier{Key: &key.PublicKey, Now: func() time.Time { return ev.Timestamp.Add(time.Minute) }}
	require.NoError(t, at.Verify(r.body, r.sig))
	// The bare base64 form verifies too.
	var h struct{ S string }
	require.NoError(t, json.Unmarshal([]byte(r.sig), &h))
	require.NoError(t, at.Verify(r.body, h.S))

	t.Run("tampered body", func(t *testing.T) {
		bad := append([]byte(nil), r.body...)
		bad[len(bad)-2] ^= 1
		assert.ErrorIs(t, webhooks.Verify(&key.PublicKey, bad, r.sig), webhooks.ErrBadSignature)
	})
	t.Run("other key", func(t *testing.T) {
		other, _ := webhooks.GenerateKey()
		assert.ErrorIs(t, webhooks.Verify(&other.PublicKey, r.body, r.sig), webhooks.ErrBadSignature)
	})
	t.Run("garbage header", func(t *testing.T) {
		for _, h := range []string{"", "%%%", `{"v":"2","s":"AAAA"}`, base64.StdEncoding.EncodeToString([]byte("nope"))} {
			assert.ErrorIs(t, webhooks.Verify(&key.PublicKey, r.body, h), webhooks.ErrBadSignature, h)
		}
	})
}

func TestSend_StatusHandling(t *testing.T) {
	srv, _, setStatus := receiver(t)
	s, _ := newSender(t, true)
	for status, wantErr := range map[int]bool{200: false, 204: false, 409: false, 500: true, 400: true, 302: true} {
		setStatus(status)
		d, err := s.Send(context.Background(), srv.URL, ev)
		assert.Equal(t, wantErr, err != nil, "status %d", status)
		assert.Equal(t, status, d.Status)
		if err != nil {
			assert.False(t, errors.Is(err, payments.ErrPermanent), "retryable")
		}
	}
}

func TestSend_RefusesPrivateAddressesByDefault(t *testing.T) {
	srv, got, _ := receiver(t)
	s, _ := newSender(t, false)
	_, err := s.Send(context.Background(), srv.URL, ev)
	require.Error(t, err)
	assert.ErrorIs(t, err, payments.ErrPermanent)
	assert.ErrorIs(t, err, webhooks.ErrPrivateAddress)
	assert.Empty(t, got(), "nothing reached the loopback receiver")
}

func TestSend_TimeoutIsRetryable(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-block }))
	defer srv.Close()
	defer close(block)
	key, _ := webhooks.GenerateKey()
	s, err := webhooks.New(webhooks.Config{Key: key, AllowPrivate: true, Timeout: 50 * time.Millisecond})
	require.NoError(t, err)
	_, err = s.Send(context.Background(), srv.URL, ev)
	require.Error(t, err)
	assert.False(t, errors.Is(err, payments.ErrPermanent))
}

func TestKeys_PEMRoundTrip(t *testing.T) {
	key, _ := webhooks.GenerateKey()
	pub, err := webhooks.PublicKeyPEM(&key.PublicKey)
	require.NoError(t, err)
	back, err := webhooks.ParsePublicKeyPEM(pub)
	require.NoError(t, err)
	assert.True(t, back.Equal(&key.PublicKey))
	priv, err := webhooks.MarshalPrivateKeyPEM(key)
	require.NoError(t, err)
	k2, err := webhooks.ParsePrivateKeyPEM(priv)
	require.NoError(t, err)
	assert.True(t, k2.Equal(key))
	_, err = webhooks.ParsePublicKeyPEM("nope")
	assert.Error(t, err)
	_, err = webhooks.New(webhooks.Config{})
	assert.Error(t, err)
}

// TestIsSpecialPurpose: the IANA special-purpose ranges a hand-written
// guard missed are refused, as are the usual private ones; public
// addresses pass.
func TestIsSpecialPurpose(t *testing.T) {
	for _, s := range []string{"100.64.0.1", "100.127.255.254", "198.18.0.1", "198.19.255.255", "0.0.0.0", "0.1.2.3",
		"192.0.0.8", "64:ff9b::a00:1", "64:ff9b::808:808", "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1",
		"169.254.169.254", "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1", "::ffff:100.64.0.1", "192.0.2.1",
		"240.0.0.1", "255.255.255.255", "224.0.0.1", "2001:db8::1", "ff02::1", "::"} {
		assert.True(t, webhooks.IsSpecialPurpose(netip.MustParseAddr(s)), s)
	}
	for _, s := range []string{"8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.0", "198.20.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"} {
		assert.False(t, webhooks.IsSpecialPurpose(netip.MustParseAddr(s)), s)
	}
}

// TestSend_RefusesSpecialPurposeAtDialTime: the check runs on the dialled
// address, so a literal in a special range is refused without a request.
func TestSend_RefusesSpecialPurposeAtDialTime(t *testing.T) {
	s, _ := newSender(t, false)
	for _, host := range []string{"100.64.0.1", "198.18.0.1", "[64:ff9b::7f00:1]", "0.0.0.0"} {
		_, err := s.Send(context.Background(), "http://"+host+":9/hook", payments.Event{ID: "Event:1", Type: "TEST"})
		assert.ErrorIs(t, err, webhooks.ErrPrivateAddress, host)
	}
}

// A branded Sender signs in X-<Brand>-Signature and sends the brand's codes
// and fields; a receiver finds the header with SignatureHeaderFor and
// verifies the body as it arrived.
func TestSend_Brand(t *testing.T) {
	var mu sync.Mutex
	var headers http.Header
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		headers, body = r.Header.Clone(), b
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	key, err := webhooks.GenerateKey()
	require.NoError(t, err)
	s, err := webhooks.New(webhooks.Config{Key: key, AllowPrivate: true, Brand: "Acme"})
	require.NoError(t, err)
	assert.Equal(t, "X-Acme-Signature", s.SignatureHeader())
	assert.Equal(t, "X-Acme-Signature", webhooks.SignatureHeaderFor("Acme"))
	assert.Equal(t, webhooks.SignatureHeader, webhooks.SignatureHeaderFor(""))
	assert.Equal(t, webhooks.SignatureHeader, webhooks.SignatureHeaderFor("Service"))

	branded := ev
	branded.Data = json.RawMessage(`{"id":"Quote:1","rateDetails":{"serviceApiMultiplier":1.08},"stateReason":"CLOSED_BY_SERVICE","code":"SERVICE_UNAVAILABLE"}`)
	_, err = s.Send(context.Background(), srv.URL, branded)
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, headers.Get(webhooks.SignatureHeader))
	sig := headers.Get(webhooks.SignatureHeaderFor("Acme"))
	require.NotEmpty(t, sig)
	require.NoError(t, webhooks.Verifier{Key: &key.PublicKey, Tolerance: -1}.Verify(body, sig))
	var env struct{ Data map[string]any }
	require.NoError(t, json.Unmarshal(body, &env))
	assert.Equal(t, map[string]any{"id": "Quote:1", "rateDetails": map[string]any{"acmeApiMultiplier": 1.08},
		"stateReason": "CLOSED_BY_ACME", "code": "SERVICE_UNAVAILABLE"}, env.Data)

	_, err = webhooks.New(webhooks.Config{Key: key, Brand: "Not a brand"})
	assert.Error(t, err)
}

func TestSend_TraceParent(t *testing.T) {
	srv, got, _ := receiver(t)
	s, _ := newSender(t, true)
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	for _, ctx := range []context.Context{context.Background(), payments.WithTraceParent(context.Background(), tp)} {
		_, err := s.Send(ctx, srv.URL, ev)
		require.NoError(t, err)
	}
	deliveries := got()
	require.Len(t, deliveries, 2)
	assert.Empty(t, deliveries[0].traceParent, "an event emitted under no trace")
	assert.Equal(t, tp, deliveries[1].traceParent)
	assert.Equal(t, string(deliveries[0].body), string(deliveries[1].body), "the envelope does not carry it")
}

// TestSender_EventsFollowTheEndpoint: with the Sender as the engine's
// Notifier, events belong to the endpoint configured when their operation
// commits. Without one a payment writes no events (nothing would receive
// them), on every store; the payment made once an endpoint is configured
// reaches it, with none of the earlier one's events; an engine that keeps
// an event history records the events without an endpoint as delivered at
// once (nothing waits in the outbox), and sends them once there is one.
func TestSender_EventsFollowTheEndpoint(t *testing.T) {
	ctx := context.Background()
	for name, store := range enginetest.Stores(t) {
		t.Run(name, func(t *testing.T) {
			sender, key := newSender(t, true)
			srv, got, _ := receiver(t)
			e := enginetest.MoneyEnv(t, store, func(c *payments.Config) { c.Notifier = sender })
			from, to := e.USDAccount(t, "Ann Payer"), e.USDAccount(t, "Bo Payee")
			_, err := e.Eng.Sandbox.Fund(ctx, from, 10_000)
			require.NoError(t, err)
			pay := func() string {
				q, err := e.Eng.Quotes.Create(ctx, enginetest.Transfer(from, to, 100, true))
				require.NoError(t, err)
				return q.TransactionID
			}
			first := pay()
			all, err := e.Eng.Webhooks.AllDeliveries(ctx, payments.DeliveryFilter{}, payments.ListParams{})
			require.NoError(t, err)
			require.Empty(t, all.Data, "no endpoint: no events")

			endpoint := srv.URL + "/hooks"
			_, err = e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &endpoint})
			require.NoError(t, err)
			second := pay()
			_, err = e.Eng.Webhooks.Flush(ctx)
			require.NoError(t, err)
			var types []string
			for _, r := range got() {
				require.NoError(t, webhooks.Verifier{Key: &key.PublicKey, Now: e.Clock.Now}.Verify(r.body, r.sig))
				require.NotContains(t, string(r.body), first)
				var ev payments.Event
				require.NoError(t, json.Unmarshal(r.body, &ev))
				types = append(types, string(ev.Type))
				if strings.HasPrefix(string(ev.Type), "OUTGOING_PAYMENT.") {
					require.Contains(t, string(ev.Data), second)
				}
			}
			require.Contains(t, types, "OUTGOING_PAYMENT.COMPLETED")
		})
	}
	for name, store := range enginetest.Stores(t) {
		t.Run(name+"/history", func(t *testing.T) {
			historyFollowsTheEndpoint(t, store)
		})
	}
}

// historyFollowsTheEndpoint is TestSender_EventsFollowTheEndpoint on an
// engine that keeps an event history, on the store that store sets up.
func historyFollowsTheEndpoint(t *testing.T, store func(*payments.Config)) {
	ctx := context.Background()
	sender, _ := newSender(t, true)
	srv, got, _ := receiver(t)
	e := enginetest.MoneyEnv(t, store, func(c *payments.Config) { c.Notifier, c.EventHistory = sender, true })
	from := e.USDAccount(t, "Ann Payer")
	_, err := e.Eng.Sandbox.Fund(ctx, from, 10_000)
	require.NoError(t, err)
	// Nothing waits: the events entered the history not sent, for want
	// of an endpoint, in the transaction that emitted them.
	pending, err := e.Eng.Webhooks.Pending(ctx)
	require.NoError(t, err)
	require.Empty(t, pending)
	all, err := e.Eng.Webhooks.AllDeliveries(ctx, payments.DeliveryFilter{}, payments.ListParams{})
	require.NoError(t, err)
	require.NotEmpty(t, all.Data, "an event history keeps the events")
	for _, d := range all.Data {
		require.Equal(t, payments.DeliveryNotSent, d.Status, "%s: nothing received it", d.Event.Type)
		require.Equal(t, payments.ReasonNoEndpoint, d.Reason)
		require.Equal(t, 0, d.Tries(), "never sent")
		require.Zero(t, d.Attempts)
		require.NotEmpty(t, d.Resource)
	}
	// With an endpoint, they go to the outbox and to it.
	endpoint := srv.URL + "/hooks"
	_, err = e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &endpoint})
	require.NoError(t, err)
	_, err = e.Eng.Sandbox.Fund(ctx, from, 500)
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, got())
	after, err := e.Eng.Webhooks.AllDeliveries(ctx, payments.DeliveryFilter{}, payments.ListParams{})
	require.NoError(t, err)
	require.Greater(t, len(after.Data), len(all.Data))
	delivered, err := e.Eng.Webhooks.AllDeliveries(ctx, payments.DeliveryFilter{Status: payments.DeliveryDelivered}, payments.ListParams{})
	require.NoError(t, err)
	require.Len(t, delivered.Data, len(after.Data)-len(all.Data), "those sent to the endpoint are delivered")
	for _, d := range delivered.Data {
		require.Equal(t, 1, d.Tries())
		require.Empty(t, d.Reason)
	}
	notSent, err := e.Eng.Webhooks.ListDeliveries(ctx, payments.DeliveryFilter{Status: payments.DeliveryNotSent}, payments.ListParams{})
	require.NoError(t, err)
	require.Len(t, notSent.Data, len(all.Data), "the others are listed not sent")
}

// TestSender_EndpointRemovedMeanwhile: an event queued for an endpoint that
// failed its first try, and due again once the endpoint was removed, is
// logged NOT_SENT with its one try, not DELIVERED: nothing received it.
func TestSender_EndpointRemovedMeanwhile(t *testing.T) {
	ctx := context.Background()
	sender, _ := newSender(t, true)
	srv, got, setStatus := receiver(t)
	setStatus(503)
	endpoint := srv.URL + "/hooks"
	e := enginetest.MoneyEnv(t, func(c *payments.Config) {
		c.Notifier, c.EventHistory, c.Platform.WebhookEndpoint = sender, true, endpoint
	})
	from := e.USDAccount(t, "Ann Payer")
	_, err := e.Eng.Sandbox.Fund(ctx, from, 10_000)
	require.NoError(t, err)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, got(), "tried once, and refused")
	none := ""
	_, err = e.Eng.Platform.UpdateConfig(ctx, payments.PlatformConfigUpdate{WebhookEndpoint: &none})
	require.NoError(t, err)
	e.Clock.Advance(time.Hour)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)

	all, err := e.Eng.Webhooks.AllDeliveries(ctx, payments.DeliveryFilter{}, payments.ListParams{})
	require.NoError(t, err)
	require.NotEmpty(t, all.Data)
	for _, d := range all.Data {
		assert.Equal(t, payments.DeliveryNotSent, d.Status, "%s", d.Event.Type)
		assert.Equal(t, payments.ReasonNoEndpoint, d.Reason)
		assert.Equal(t, 1, d.Attempts, "the one try the endpoint refused")
		assert.Equal(t, 1, d.Tries())
		assert.NotEmpty(t, d.LastError)
	}
}

// TestVerify_RefusesStaleDeliveries: the signature covers the body alone,
// so a captured delivery would verify forever; Verify refuses one whose
// event timestamp is more than DefaultTolerance old, with an error of its
// own, and a Verifier sets the tolerance and the clock.
func TestVerify_RefusesStaleDeliveries(t *testing.T) {
	srv, got, _ := receiver(t)
	s, key := newSender(t, true)
	pub := &key.PublicKey
	send := func(at time.Time) received {
		t.Helper()
		e := ev
		e.Timestamp = at
		_, err := s.Send(context.Background(), srv.URL, e)
		require.NoError(t, err)
		all := got()
		return all[len(all)-1]
	}
	now := time.Now().UTC()

	fresh := send(now.Add(-time.Minute))
	require.NoError(t, webhooks.Verify(pub, fresh.body, fresh.sig))
	ahead := send(now.Add(time.Hour))
	require.NoError(t, webhooks.Verify(pub, ahead.body, ahead.sig), "a clock ahead of the receiver's is no replay")

	old := send(now.Add(-webhooks.DefaultTolerance - time.Minute))
	err := webhooks.Verify(pub, old.body, old.sig)
	require.ErrorIs(t, err, webhooks.ErrStaleDelivery)
	assert.NotErrorIs(t, err, webhooks.ErrBadSignature, "a stale delivery is told apart from a forged one")
	assert.Equal(t, 5*time.Minute, webhooks.DefaultTolerance)

	// A tampered stale body is a bad signature first.
	bad := append([]byte(nil), old.body...)
	bad[len(bad)-2] ^= 1
	assert.ErrorIs(t, webhooks.Verify(pub, bad, old.sig), webhooks.ErrBadSignature)

	// Tolerance: longer accepts it, shorter refuses a fresh one, negative
	// checks the signature alone.
	require.NoError(t, webhooks.Verifier{Key: pub, Tolerance: time.Hour}.Verify(old.body, old.sig))
	assert.ErrorIs(t, webhooks.Verifier{Key: pub, Tolerance: 10 * time.Second}.Verify(fresh.body, fresh.sig), webhooks.ErrStaleDelivery)
	require.NoError(t, webhooks.Verifier{Key: pub, Tolerance: -1}.Verify(old.body, old.sig))
	// Now: measured on the sender's clock (a sandbox's), the same body is
	// fresh, and a day later on that clock it is stale.
	at := func(t time.Time) func() time.Time { return func() time.Time { return t } }
	require.NoError(t, webhooks.Verifier{Key: pub, Now: at(now.Add(-webhooks.DefaultTolerance))}.Verify(old.body, old.sig))
	assert.ErrorIs(t, webhooks.Verifier{Key: pub, Now: at(now.Add(24 * time.Hour))}.Verify(fresh.body, fresh.sig), webhooks.ErrStaleDelivery)
	// The boundary: exactly the tolerance old still passes.
	stamp := ev
	stamp.Timestamp = now.Truncate(time.Second)
	edge := send(stamp.Timestamp)
	require.NoError(t, webhooks.Verifier{Key: pub, Now: at(stamp.Timestamp.Add(webhooks.DefaultTolerance))}.Verify(edge.body, edge.sig))
	assert.ErrorIs(t, webhooks.Verifier{Key: pub, Now: at(stamp.Timestamp.Add(webhooks.DefaultTolerance + time.Second))}.Verify(edge.body, edge.sig), webhooks.ErrStaleDelivery)

	// A signed body without a readable timestamp cannot be dated.
	for _, body := range []string{`{"id":"Webhook:1","type":"TEST","data":{}}`, `{"id":"Webhook:1","timestamp":"yesterday"}`, `[1,2]`} {
		sig, err := s.Sign([]byte(body))
		require.NoError(t, err)
		assert.ErrorIs(t, webhooks.Verify(pub, []byte(body), sig), webhooks.ErrNoTimestamp, body)
		require.NoError(t, webhooks.Verifier{Key: pub, Tolerance: -1}.Verify([]byte(body), sig), body)
	}
	assert.ErrorIs(t, webhooks.Verify(nil, fresh.body, fresh.sig), webhooks.ErrBadSignature, "no key")
}

// TestSender_EachTryStampsItsSendTime: the engine retries a failed delivery
// for days, so each try's envelope carries the time that try is sent on the
// engine clock, signed with the body: a retry an hour after the event
// verifies at that clock with the default tolerance, with the first try's
// id; a Redeliver stamps its own time too; a captured try replayed six
// minutes after it was sent is refused as stale. The history keeps the
// event's own time.
func TestSender_EachTryStampsItsSendTime(t *testing.T) {
	ctx := context.Background()
	sender, key := newSender(t, true)
	srv, got, setStatus := receiver(t)
	setStatus(503)
	e := enginetest.MoneyEnv(t, func(c *payments.Config) {
		c.Notifier, c.EventHistory, c.Platform.WebhookEndpoint = sender, true, srv.URL+"/hooks"
	})
	atClock := webhooks.Verifier{Key: &key.PublicKey, Now: e.Clock.Now}
	type envelope struct {
		ID        string    `json:"id"`
		Type      string    `json:"type"`
		Timestamp time.Time `json:"timestamp"`
	}
	last := func() (received, envelope) {
		t.Helper()
		all := got()
		require.NotEmpty(t, all)
		var env envelope
		require.NoError(t, json.Unmarshal(all[len(all)-1].body, &env))
		return all[len(all)-1], env
	}

	from := e.USDAccount(t, "Ann Payer")
	_, err := e.Eng.Sandbox.Fund(ctx, from, 10_000)
	require.NoError(t, err)
	pending, err := e.Eng.Webhooks.Pending(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, pending)
	emitted := pending[len(pending)-1]
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	first, firstEnv := last()
	require.Equal(t, emitted.ID, firstEnv.ID)
	assert.True(t, firstEnv.Timestamp.Equal(e.Clock.Now()), "the first try is sent at the event's instant: %s", firstEnv.Timestamp)
	require.NoError(t, atClock.Verify(first.body, first.sig))

	// An hour later on the engine clock the retry succeeds, and verifies
	// with the default tolerance at that clock.
	e.Clock.Advance(time.Hour)
	setStatus(200)
	_, err = e.Eng.Webhooks.Flush(ctx)
	require.NoError(t, err)
	retry, retryEnv := last()
	assert.Equal(t, firstEnv.ID, retryEnv.ID, "receivers dedupe on the id, the same on every try")
	assert.True(t, retryEnv.Timestamp.Equal(e.Clock.Now()), "the retry's own send time: %s", retryEnv.Timestamp)
	assert.True(t, retryEnv.Timestamp.Equal(emitted.Timestamp.Add(time.Hour)), "%s, event at %s", retryEnv.Timestamp, emitted.Timestamp)
	require.NoError(t, atClock.Verify(retry.body, retry.sig), "a retry later than the tolerance after the event verifies")
	assert.ErrorIs(t, atClock.Verify(first.body, first.sig), webhooks.ErrStaleDelivery, "the first try, an hour old")

	// The history keeps the event's own time.
	d, err := e.Eng.Webhooks.Delivery(ctx, emitted.ID)
	require.NoError(t, err)
	assert.Equal(t, payments.DeliveryDelivered, d.Status)
	assert.True(t, d.Event.Timestamp.Equal(emitted.Timestamp), "history %s, event %s", d.Event.Timestamp, emitted.Timestamp)

	// Redeliver, a day later, is a try of its own, stamped when sent.
	e.Clock.Advance(24 * time.Hour)
	_, err = e.Eng.Webhooks.Redeliver(ctx, emitted.ID)
	require.NoError(t, err)
	again, againEnv := last()
	assert.Equal(t, firstEnv.ID, againEnv.ID)
	assert.True(t, againEnv.Timestamp.Equal(e.Clock.Now()), "redelivered at %s", againEnv.Timestamp)
	require.NoError(t, atClock.Verify(again.body, again.sig))

	// A captured try replayed six minutes after it was sent is stale.
	e.Clock.Advance(6 * time.Minute)
	err = atClock.Verify(again.body, again.sig)
	require.ErrorIs(t, err, webhooks.ErrStaleDelivery)
	assert.NotErrorIs(t, err, webhooks.ErrBadSignature)
}
