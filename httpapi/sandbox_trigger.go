package httpapi

import (
	"context"
	"net/http"

	"github.com/paygrid/payments"
)

// EventTrigger is the optional capability of a TestClock that makes
// events happen on demand (POST /sandbox/trigger, ours: as `stripe
// trigger` does). sandbox.Controls implements it; the routes answer 501
// NOT_IMPLEMENTED when the server's TestClock does not.
type EventTrigger interface {
	// TriggerTypes lists the event types Trigger makes happen.
	TriggerTypes() []payments.EventType
	// Trigger runs the real flow that produces an event of type typ on
	// fixture records and answers what it made; a type not among
	// TriggerTypes is INVALID_INPUT naming eventType.
	Trigger(ctx context.Context, typ payments.EventType) (*payments.Triggered, error)
}

// triggerRequest is the body of POST /sandbox/trigger.
type triggerRequest struct {
	// EventType is the type of event to make happen, such as
	// OUTGOING_PAYMENT.COMPLETED.
	EventType payments.EventType `json:"eventType"`
}

// triggerTypes is the answer of GET /sandbox/trigger.
type triggerTypes struct {
	EventTypes []payments.EventType `json:"eventTypes"`
}

// eventTrigger returns the server's trigger: FORBIDDEN outside sandbox
// mode, NOT_IMPLEMENTED when its TestClock cannot trigger events.
func eventTrigger(r *request) (EventTrigger, error) {
	c, err := testClock(r)
	if err != nil {
		return nil, err
	}
	tr, ok := c.(EventTrigger)
	if !ok {
		return nil, payments.Errorf(payments.CodeNotImplemented, "this server cannot trigger events")
	}
	return tr, nil
}

// listTriggers is GET /sandbox/trigger: the event types POST
// /sandbox/trigger accepts, 200.
func listTriggers(r *request) (int, any, error) {
	tr, err := eventTrigger(r)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, triggerTypes{EventTypes: tr.TriggerTypes()})
}

// trigger is POST /sandbox/trigger {"eventType": "..."}: the flow behind
// the type runs on fixture records, 200 with the records made and the ids
// of the events of that type (payments.Triggered). An unknown or missing
// type is 400 INVALID_INPUT naming eventType.
func trigger(r *request) (int, any, error) {
	tr, err := eventTrigger(r)
	if err != nil {
		return fail(err)
	}
	var in triggerRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	out, err := tr.Trigger(r.ctx(), in.EventType)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, out)
}
