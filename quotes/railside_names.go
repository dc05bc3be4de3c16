package quotes

import (
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/quotes/railside"
)

// The rail boundary (payment intents, the rail's reports and the outcomes
// waiting for their time) lives in package quotes/railside, below this
// one; these are its names as this package has always spelled them (the
// root re-exports them from here).

// Rails is the engine's side of the rail boundary: the rails.Reporter
// production rails report through. Reach it as eng.Rails. It is a
// railside.Rails.
type Rails = railside.Rails

// NewRails returns the Rails group of h (railside.NewRails).
func NewRails(h *engine.Handle) Rails { return railside.NewRails(h) }
