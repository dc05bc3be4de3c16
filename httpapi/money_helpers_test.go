package httpapi_test

import (
	"context"
	"sync"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/sandbox"
)

// eventRecorder is a Notifier that keeps every delivered event.
type eventRecorder struct {
	mu     sync.Mutex
	events []payments.Event
}

func (r *eventRecorder) Notify(_ context.Context, ev payments.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	return nil
}

var recorders sync.Map // *payments.Engine -> *eventRecorder

// moneyServer is a sandbox server with every sandbox provider and a
// recording notifier.
func moneyServer(t *testing.T) *server {
	rec := &eventRecorder{}
	s := newServer(t, func(c *payments.Config) {
		c.KYC, c.Rail, c.Rates, c.Directory, c.Notifier = sandbox.KYC{}, sandbox.Rail{}, sandbox.Rates{}, sandbox.Directory{}, rec
	})
	recorders.Store(s.eng, rec)
	return s
}

// events returns the events delivered so far.
func (s *server) events() []payments.Event {
	v, _ := recorders.Load(s.eng)
	r := v.(*eventRecorder)
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]payments.Event(nil), r.events...)
}
