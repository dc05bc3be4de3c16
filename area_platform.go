package payments

import (
	"context"
	"time"
)

// platformArea declares the platform's tables: its configuration and the
// API tokens.
func platformArea(e *handle, cfg Config) areaDef {
	return areaDef{hooks: deliveryHooks{endpoint: func(ctx context.Context) (string, error) { return webhookEndpointOf(e, ctx) }},
		state: []slotEntry{platformSlot.with(&platformState{seed: cfg.Platform})}, tables: []tableDef{
			{name: tablePlatform, record: func() any { return new(PlatformConfig) }},
			{name: tableTokens, credentials: true,
				ix: indexed(tableTokens, func(x *tokenRecord) time.Time { return x.CreatedAt },
					every[tokenRecord](),
					ix(ixName, func(x *tokenRecord) string { return x.Name }))},
			{name: tableTokenClients, credentials: true},
		}}
}

// platformState is the platform area's state: the configuration New seeds
// an empty store with, and caches of the configuration and the tokens.
type platformState struct {
	seed  PlatformSeed
	cache platformCache
	auth  authCache
}

var platformSlot slot[platformState]

// webhookEndpointOf is the platform's configured webhook endpoint.
func webhookEndpointOf(e *handle, ctx context.Context) (string, error) {
	cfg, err := Platform{e}.Config(ctx)
	if err != nil {
		return "", err
	}
	return cfg.WebhookEndpoint, nil
}
