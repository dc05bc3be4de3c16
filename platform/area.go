package platform

import (
	"context"
	"time"

	"github.com/paygrid/payments/internal/engine"
)

// Options is what payments.New gives the platform area: the configuration
// an empty store is seeded with, and how the platform's internal accounts
// are opened (accounts area).
type Options struct {
	// Seed is the configuration WriteSeed writes into an empty store
	// (payments.Config.Platform); Reseed writes it again after a sandbox
	// reset.
	Seed Seed
	// OpenAccounts opens, inside t, an internal account for owner
	// (engine.PlatformOwner here) in each of currencies it lacks one in:
	// accounts.OpenInternal, wired by payments.New because the accounts
	// area sits above this one. Required: a nil hook panics on the first
	// seed or currency update.
	OpenAccounts func(t *engine.Txn, owner string, currencies []string) error
}

// Area declares the platform's tables (its configuration and the API
// tokens, with the unique index of client ids) and serves the outbox's
// Endpoint hook, for payments.New to register.
func Area(e *engine.Handle, cfg Options) engine.AreaDef {
	return engine.AreaDef{Hooks: engine.DeliveryHooks{Endpoint: func(ctx context.Context) (string, error) { return webhookEndpointOf(e, ctx) },
		EndpointIn: endpointIn},
		State: []engine.SlotEntry{platformSlot.With(&platformState{Options: cfg})}, Tables: []engine.TableDef{
			{Name: table, Record: func() any { return new(Config) }, Required: true},
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

// platformSlot finds the platform area's state on an engine handle.
var platformSlot engine.Slot[platformState]

// webhookEndpointOf is the platform's configured webhook endpoint, read
// for each delivery so that an update takes effect with the next event.
func webhookEndpointOf(e *engine.Handle, ctx context.Context) (string, error) {
	cfg, err := NewService(e).Config(ctx)
	if err != nil {
		return "", err
	}
	return cfg.WebhookEndpoint, nil
}

// endpointIn is the configured webhook endpoint as t sees it ("" when no
// platform is configured yet).
func endpointIn(t *engine.Txn) (string, error) {
	cfg, err := Load(t)
	if engine.CodeOf(err) == engine.CodePlatformNotFound {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return cfg.WebhookEndpoint, nil
}

// ForgetTokens drops the verified credentials the platform area
// remembers (see Service.Authenticate), after a sandbox import or reset
// replaced the tokens: a credential of the old state must not outlive it.
func ForgetTokens(h *engine.Handle) { platformSlot.Of(h).auth.forget() }
