package engine

import (
	"encoding/json"
	"fmt"
	"slices"
)

// DataOf decodes ev's data as the T it carries. types are the event types
// whose data is a T; an event of another type is INVALID_INPUT, so a
// receiver cannot read a customer as a transaction by mistake. Each area
// declares its event types and the typed function over DataOf that reads
// their data (quotes.TransactionOf, customers.CustomerOf, ...).
func DataOf[T any](ev Event, types ...EventType) (*T, error) {
	if !slices.Contains(types, ev.Type) {
		var zero T
		return nil, Errorf(CodeInvalidInput, "event %s (%s) carries no %T", ev.ID, ev.Type, zero)
	}
	v := new(T)
	if err := json.Unmarshal(ev.Data, v); err != nil {
		return nil, fmt.Errorf("event %s (%s): %w", ev.ID, ev.Type, err)
	}
	return v, nil
}
