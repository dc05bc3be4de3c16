// Package eventrec holds the records of webhook events as the kernel
// stores them, and their hand-written codecs: Event (what a receiver gets),
// Record (an event in the outbox, with its delivery attempts) and
// WebhookDelivery (an event with where its delivery stands, as the event
// history keeps it), with DeliveryFilter, which narrows lists of them. The
// kernel (internal/engine) writes and reads them in its transactions and
// re-exports the public names; this package imports nothing of the
// module but jsonx, so the codecs are tested and fuzzed on their own.
package eventrec

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/paygrid/payments/internal/jsonx"
)

// EventType is a webhook event's type, such as OUTGOING_PAYMENT.COMPLETED
// (reference WebhookType).
type EventType string

// Event is one state change, delivered to the Notifier in the reference's
// webhook envelope: {id, type, timestamp, data}. ID ("Webhook:<uuid>") stays
// the same across retries, so receivers dedupe on it.
type Event struct {
	ID   string    `json:"id"`
	Type EventType `json:"type"`
	// Timestamp is when the event happened, as the outbox, the dead
	// letters and the delivery history keep it; an event handed to the
	// Notifier or a WebhookSender instead carries the time that try is
	// sent, on the engine clock (Config.Now), which receivers check the
	// delivery's age against.
	Timestamp time.Time       `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// Record is an Event waiting for delivery, keyed by the event's id
// (time-ordered, so the outbox is scanned in emission order), with its
// delivery attempts so far and the traceparent of the transaction that
// emitted it (the kernel's tracing; absent from records written without a trace,
// and from those of earlier versions).
type Record struct {
	Event         Event     `json:"event"`
	Attempts      int       `json:"attempts"`
	NextAttemptAt time.Time `json:"nextAttemptAt"`
	LastError     string    `json:"lastError,omitempty"`
	Trace         string    `json:"trace,omitempty"`
}

// encode returns json.Marshal(r) (see Append). Data must be compact,
// valid JSON, as engine.EncodeRecord returns.
func (r Record) Encode() ([]byte, error) {
	return Append(make([]byte, 0, len(r.Event.Data)+len(r.LastError)+256), &r)
}

// The members of an encoded record around its event's data (see
// Decode).
var (
	outboxHead      = []byte(`{"event":{"id":"`)
	outboxType      = []byte(`","type":"`)
	outboxTimestamp = []byte(`","timestamp":"`)
	outboxData      = []byte(`","data":`)
	outboxAttempts  = []byte(`},"attempts":`)
	outboxNext      = []byte(`,"nextAttemptAt":"`)
)

// Decode returns json.Unmarshal(b) into a Record without
// encoding/json's passes over the event's data (validating it, then
// skipping it, then copying it). A record as encode writes it is
// {"event":{"id":…,"type":…,"timestamp":…,"data":DATA},"attempts":…,
// "nextAttemptAt":…[,"lastError":…]} and DATA, compact JSON engine.EncodeRecord
// made, is taken as it is: the members around it are read in place. The
// first `"data":` and the last `},"attempts":` are the members themselves:
// the strings before DATA and after it cannot hold a bare quote. A record
// of any other shape (a string with escapes, a member more or less) is
// decoded by json.Unmarshal. The event's data shares b's bytes: stored values
// are read-only (see Tx).
func Decode(b []byte) (Record, error) {
	if r, ok := DecodeInPlace(b); ok {
		return r, nil
	}
	var r Record
	return r, json.Unmarshal(b, &r)
}

// DecodeInPlace is Decode's fast path; ok is false for any
// record it does not recognise.
func DecodeInPlace(b []byte) (r Record, ok bool) {
	rest, ok := bytes.CutPrefix(b, outboxHead)
	if !ok {
		return r, false
	}
	// until returns the bytes of rest before sep and cuts them and sep
	// off rest; they must hold no escape or quote.
	until := func(sep []byte) ([]byte, bool) {
		i := bytes.Index(rest, sep)
		if i < 0 || bytes.IndexByte(rest[:i], '\\') >= 0 || bytes.IndexByte(rest[:i], '"') >= 0 {
			return nil, false
		}
		v := rest[:i]
		rest = rest[i+len(sep):]
		return v, true
	}
	id, ok1 := until(outboxType)
	typ, ok2 := until(outboxTimestamp)
	ts, ok3 := until(outboxData)
	j := bytes.LastIndex(rest, outboxAttempts)
	if !ok1 || !ok2 || !ok3 || j <= 0 {
		return r, false
	}
	data, tail := rest[:j], rest[j+len(outboxAttempts):]
	if jsonx.IsSpace(data[0]) || jsonx.IsSpace(data[len(data)-1]) {
		return r, false // not as encode writes it: json.Unmarshal trims the value
	}
	attempts, tail, ok := bytes.Cut(tail, outboxNext)
	n, err := strconv.Atoi(string(attempts))
	if !ok || err != nil {
		return r, false
	}
	rest = tail
	next, ok := until([]byte(`"`))
	if !ok {
		return r, false
	}
	if len(rest) == 0 {
		return r, false
	}
	if len(rest) != 1 || rest[0] != '}' {
		// "lastError" (after a failed delivery) and "trace": decoded as
		// JSON.
		var e struct {
			LastError *string `json:"lastError"`
			Trace     *string `json:"trace"`
		}
		if rest[0] != ',' || json.Unmarshal(append([]byte{'{'}, rest[1:]...), &e) != nil || e.LastError == nil && e.Trace == nil {
			return r, false
		}
		if e.LastError != nil {
			r.LastError = *e.LastError
		}
		if e.Trace != nil {
			r.Trace = *e.Trace
		}
	}
	when, err1 := time.Parse(time.RFC3339Nano, string(ts))
	nextAt, err2 := time.Parse(time.RFC3339Nano, string(next))
	if err1 != nil || err2 != nil {
		return r, false
	}
	r.Event = Event{ID: string(id), Type: EventType(typ), Timestamp: when, Data: data}
	r.Attempts, r.NextAttemptAt = n, nextAt
	return r, true
}

// Append appends json.Marshal of an outbox record whose event data is
// compact, valid JSON (as engine.EncodeRecord returns) or absent.
func Append(b []byte, r *Record) ([]byte, error) {
	b, err := AppendHead(b, r)
	if err != nil {
		return nil, err
	}
	return AppendTail(AppendData(b, r.Event.Data), r)
}

// AppendData appends an event's data, compact and valid as Txn.Emit
// keeps it (null when absent), as json.Marshal would.
func AppendData(b []byte, data json.RawMessage) []byte {
	if len(data) == 0 {
		return append(b, "null"...)
	}
	return append(b, data...)
}

// AppendHead appends the encoding of r up to its event's data.
func AppendHead(b []byte, r *Record) ([]byte, error) {
	var err error
	b = append(jsonx.Member(append(b, '{'), "event"), '{')
	b = jsonx.StringMember(b, "id", r.Event.ID, false)
	b = jsonx.StringMember(b, "type", string(r.Event.Type), false)
	if b, err = jsonx.TimeMember(b, "timestamp", r.Event.Timestamp); err != nil {
		return nil, err
	}
	return jsonx.Member(b, "data"), nil
}

// AppendTail appends the encoding of r after its event's data.
func AppendTail(b []byte, r *Record) ([]byte, error) {
	b = jsonx.IntMember(append(b, '}'), "attempts", int64(r.Attempts))
	b, err := jsonx.TimeMember(b, "nextAttemptAt", r.NextAttemptAt)
	if err != nil {
		return nil, err
	}
	b = jsonx.StringMember(b, "lastError", r.LastError, true)
	return append(jsonx.StringMember(b, "trace", r.Trace, true), '}'), nil
}

// Delivery states of a WebhookDelivery.
const (
	DeliveryPending   = "PENDING"   // in the outbox, to be tried (again) at NextAttemptAt
	DeliveryDelivered = "DELIVERED" // accepted by the Notifier (or webhook endpoint)
	DeliveryFailed    = "FAILED"    // given up: a dead-lettered event
	// DeliveryNotSent: never sent, because nothing would have received it
	// (Reason says why): an event emitted, or due, while no webhook
	// endpoint was configured for a Notifier that delivers only there
	// (EndpointOnly). Redeliver sends it to the endpoint configured now.
	DeliveryNotSent = "NOT_SENT"
)

// ReasonNoEndpoint is the Reason of a NOT_SENT delivery: no webhook
// endpoint was configured, and the Notifier delivers nowhere else.
const ReasonNoEndpoint = "no webhook endpoint was configured"

// WebhookDelivery is an event and where its delivery stands: Attempts
// counts the tries before the last one of a delivered event (so one that
// succeeded at once has 0) and every try of one pending, given up or not
// sent (Tries counts them all), NextAttemptAt is when a pending one is
// tried next, LastError why the last failed try failed, Reason why one
// NOT_SENT was not sent, and FinishedAt when it was delivered, given up or
// found to have nowhere to go.
type WebhookDelivery struct {
	Event         Event     `json:"event"`
	Resource      string    `json:"resource,omitempty"`
	Status        string    `json:"status"`
	Attempts      int       `json:"attempts"`
	NextAttemptAt time.Time `json:"nextAttemptAt,omitzero"`
	LastError     string    `json:"lastError,omitempty"`
	Reason        string    `json:"reason,omitempty"`
	FinishedAt    time.Time `json:"finishedAt,omitzero"`
}

// Tries is the number of times the event was sent: Attempts, and the try
// that delivered it when it is DELIVERED (one that succeeded at once has
// 1).
func (d WebhookDelivery) Tries() int {
	if d.Status == DeliveryDelivered {
		return d.Attempts + 1
	}
	return d.Attempts
}

// ResourceOf returns the "id" member of an event's data, "" when it has none.
// The data of every event the areas emit begins with its record's id, read
// in place; other data is decoded.
func ResourceOf(data json.RawMessage) string {
	if rest, ok := bytes.CutPrefix(data, []byte(`{"id":"`)); ok {
		for i, c := range rest {
			if c == '"' {
				return string(rest[:i])
			}
			if c < 0x20 || c >= utf8.RuneSelf || c == '\\' {
				break // escapes and other text: decoded below
			}
		}
	}
	var v struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(data, &v) != nil {
		return ""
	}
	return v.ID
}

// IndexedStatus is the value of a history record of status in the status
// index: FAILED, and none for DELIVERED and NOT_SENT, which nearly every
// record is (every event of an engine without a webhook endpoint is logged
// NOT_SENT as it is emitted): lists of those read the history in order and
// skip the others, instead of every event paying one more index entry.
func IndexedStatus(status string) string {
	if status == DeliveryDelivered || status == DeliveryNotSent {
		return ""
	}
	return status
}

// DeliveryOf is the WebhookDelivery of outbox record r in state status.
func DeliveryOf(r Record, status string) WebhookDelivery {
	d := WebhookDelivery{Event: r.Event, Resource: ResourceOf(r.Event.Data), Status: status,
		Attempts: r.Attempts, LastError: r.LastError}
	if status == DeliveryPending {
		d.NextAttemptAt = r.NextAttemptAt
	}
	return d
}

// AppendDelivery appends json.Marshal(d) for a delivery whose event data is
// compact, valid JSON, as every outbox record's is (Txn.Emit): the data is
// copied, not checked and compacted again as encoding/json would.
func AppendDelivery(b []byte, d *WebhookDelivery) ([]byte, error) {
	b, err := AppendHead(b, &Record{Event: d.Event})
	if err != nil {
		return nil, err
	}
	return AppendDeliveryTail(AppendData(b, d.Event.Data), d)
}

// AppendDeliveryTail appends the encoding of d after its event's data.
func AppendDeliveryTail(b []byte, d *WebhookDelivery) ([]byte, error) {
	var err error
	b = jsonx.StringMember(append(b, '}'), "resource", d.Resource, true)
	b = jsonx.StringMember(b, "status", d.Status, false)
	b = jsonx.IntMember(b, "attempts", int64(d.Attempts))
	if !d.NextAttemptAt.IsZero() {
		if b, err = jsonx.TimeMember(b, "nextAttemptAt", d.NextAttemptAt); err != nil {
			return nil, err
		}
	}
	b = jsonx.StringMember(b, "lastError", d.LastError, true)
	b = jsonx.StringMember(b, "reason", d.Reason, true)
	if !d.FinishedAt.IsZero() {
		if b, err = jsonx.TimeMember(b, "finishedAt", d.FinishedAt); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// DeliveryFilter narrows Webhooks.ListDeliveries and AllDeliveries:
// Resource is the id of the record the events describe (a transaction id
// lists that payment's events), Status a delivery state (DELIVERED,
// NOT_SENT or FAILED; AllDeliveries also takes PENDING), Type an event
// type.
type DeliveryFilter struct {
	Resource string
	Status   string
	Type     EventType
}

// Match reports whether d passes f.
func (f DeliveryFilter) Match(d *WebhookDelivery) bool {
	return (f.Resource == "" || d.Resource == f.Resource) && (f.Status == "" || d.Status == f.Status) &&
		(f.Type == "" || d.Event.Type == f.Type)
}
