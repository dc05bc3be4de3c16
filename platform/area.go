package platform

import (
	"context"
	"time"

	"github.com/paygrid/payments/internal/engine"
)

// Options is what New gives the platform area: the configuration
// an empty store is seeded with, and how the platform's internal accounts
// are opened (accounts area).
type Options struct {
	Seed         Seed
	OpenAccounts func(t *engine.Txn, owner string, currencies []string) error
}

// Area declares the platform's tables: its configuration and the
// API tokens.
func Area(e *engine.Handle, cfg Options) engine.AreaDef {
	return engine.AreaDef{Hooks: engine.DeliveryHooks{Endpoint: func(ctx context.Context) (string, error) { return webhookEndpointOf(e, ctx) }},
		State: []engine.SlotEntry{platformSlot.With(&platformState{Options: cfg})}, Tables: []engine.TableDef{
			{Name: Table, Record: func() any { return new(Config) }},
			{Name: tableTokens, Credentials: true,
				Ix: engine.Indexed(tableTokens, func(x *tokenRecord) time.Time { return x.CreatedAt },
					engine.Every[tokenRecord](),
					engine.Ix(ixName, func(x *tokenRecord) string { return x.Name }))},
			{Name: tableTokenClients, Credentials: true},
		}}
}

// platformState is the platform area's state: the configuration New seeds
// an empty store with, and caches of the configuration and the tokens.
type platformState struct {
	Options
	cache platformCache
	auth  authCache
}

var platformSlot engine.Slot[platformState]

// webhookEndpointOf is the platform's configured webhook endpoint.
func webhookEndpointOf(e *engine.Handle, ctx context.Context) (string, error) {
	cfg, err := NewService(e).Config(ctx)
	if err != nil {
		return "", err
	}
	return cfg.WebhookEndpoint, nil
}

// Reseed writes the seed New was given again, unless a configuration
// exists (a sandbox reset, which cleared it).
func Reseed(t *engine.Txn) error { return WriteSeed(t, platformSlot.Of(t.Handle).Seed) }

// ForgetTokens drops the tokens the platform area remembers, after a
// sandbox import or reset replaced them.
func ForgetTokens(h *engine.Handle) { platformSlot.Of(h).auth.forget() }
