package payments

import "time"

// platformArea declares the platform's tables: its configuration and the
// API tokens.
func platformArea() areaDef {
	return areaDef{tables: []tableDef{
		{name: tablePlatform, record: func() any { return new(PlatformConfig) }},
		{name: tableTokens, credentials: true,
			ix: indexed(tableTokens, func(x *tokenRecord) time.Time { return x.CreatedAt },
				every[tokenRecord](),
				ix(ixName, func(x *tokenRecord) string { return x.Name }))},
		{name: tableTokenClients, credentials: true},
	}}
}
