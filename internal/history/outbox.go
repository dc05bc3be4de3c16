package history

import (
	"context"
	"encoding/json"

	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/internal/eventrec"
	"github.com/paygrid/payments/internal/outbound"
)

// Pending returns the events still waiting for delivery, oldest first,
// whether due now or backing off; it reads the whole outbox.
func (wh Webhooks) Pending(ctx context.Context) (_ []engine.Event, err error) {
	e := wh.h()
	ctx, op := e.Begin(ctx, "webhooks", "Pending")
	defer op.End(&err)
	var out []engine.Event
	err = e.Store.View(ctx, func(tx engine.Tx) error {
		return tx.Scan(engine.TableOutbox, engine.ScanOptions{}, func(_ string, v []byte) (bool, error) {
			r, err := eventrec.Decode(v)
			if err != nil {
				return false, err
			}
			out = append(out, r.Event)
			return true, nil
		})
	})
	return out, err
}

// TestWebhookResult reports a test delivery (POST /sandbox/webhooks/test):
// the endpoint and what it answered.
type TestWebhookResult struct {
	URL            string `json:"url"`
	ResponseStatus int    `json:"response_status"`
	ResponseBody   string `json:"response_body"`
}

// SendTest sends a TEST event to the configured endpoint now, without
// the outbox. WEBHOOK_ENDPOINT_NOT_SET without an endpoint;
// WEBHOOK_DELIVERY_ERROR when the endpoint cannot be reached or answers
// other than 2xx; FORBIDDEN outside the sandbox. The TEST event is not
// written anywhere and is not retried.
func (wh Webhooks) SendTest(ctx context.Context) (_ *TestWebhookResult, err error) {
	e := wh.h()
	ctx, op := e.Begin(ctx, "webhooks", "SendTest")
	defer op.End(&err)
	if err := e.RequireSandbox(); err != nil {
		return nil, err
	}
	endpoint, err := e.WebhookEndpoint(ctx)
	if err != nil {
		return nil, err
	}
	if endpoint == "" {
		return nil, engine.Errorf(engine.CodeWebhookEndpointNotSet, "no webhookEndpoint is configured; set one with PATCH /config")
	}
	ws, ok := e.Notifier().(outbound.WebhookSender)
	if !ok {
		return nil, engine.Errorf(engine.CodeWebhookDeliveryError, "this engine has no webhook sender configured")
	}
	id, err := e.NewID("Webhook")
	if err != nil {
		return nil, err
	}
	d, err := ws.Send(ctx, endpoint, engine.Event{ID: id, Type: engine.EventTest, Timestamp: e.Now(), Data: json.RawMessage(`{}`)})
	res := &TestWebhookResult{URL: endpoint, ResponseStatus: d.Status, ResponseBody: d.Body}
	if err != nil {
		return nil, &engine.Error{Code: engine.CodeWebhookDeliveryError, Message: "the test webhook could not be delivered: " + err.Error(),
			Details: map[string]any{"url": res.URL, "response_status": res.ResponseStatus, "response_body": res.ResponseBody}, Err: err}
	}
	return res, nil
}
