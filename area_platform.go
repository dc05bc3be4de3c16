package payments

import (
	"context"
	"time"
)

// platformArea declares the platform's tables: its configuration and the
// API tokens.
func platformArea(e *handle) areaDef {
	return areaDef{hooks: deliveryHooks{endpoint: e.webhookEndpointOf}, tables: []tableDef{
		{name: tablePlatform, record: func() any { return new(PlatformConfig) }},
		{name: tableTokens, credentials: true,
			ix: indexed(tableTokens, func(x *tokenRecord) time.Time { return x.CreatedAt },
				every[tokenRecord](),
				ix(ixName, func(x *tokenRecord) string { return x.Name }))},
		{name: tableTokenClients, credentials: true},
	}}
}

// webhookEndpointOf is the platform's configured webhook endpoint.
func (e *handle) webhookEndpointOf(ctx context.Context) (string, error) {
	cfg, err := Platform{e}.Config(ctx)
	if err != nil {
		return "", err
	}
	return cfg.WebhookEndpoint, nil
}
