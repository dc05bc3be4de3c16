package accounts

import "github.com/paygrid/payments/internal/engine"

// The hand-written codec of amounts (the engine's appenders and Canon
// reader, internal/engine encode.go and decode.go), nested in every
// transaction and account view, so that events and list pages do not go
// through encoding/json's reflection. Each appender writes exactly what
// json.Marshal writes for the value, so the two stay interchangeable.

// AppendCurrencyAmount appends json.Marshal(a) to b.
func AppendCurrencyAmount(b []byte, a *CurrencyAmount) []byte {
	b = engine.IntMember(append(b, '{'), "amount", a.Amount)
	return append(AppendCurrencyInfo(engine.Member(b, "currency"), &a.Currency), '}')
}

// AppendCurrencyInfo appends json.Marshal(c) to b.
func AppendCurrencyInfo(b []byte, c *CurrencyInfo) []byte {
	b = engine.StringMember(append(b, '{'), "code", c.Code, false)
	b = engine.StringMember(b, "name", c.Name, false)
	b = engine.StringMember(b, "symbol", c.Symbol, false)
	return append(engine.IntMember(b, "decimals", int64(c.Decimals)), '}')
}

// ReadAmount reads back what AppendCurrencyAmount wrote, members in that
// order. Anything else stops c (Canon.Done reports false) and the caller
// falls back to encoding/json; ReadAmount itself never fails.
func ReadAmount(c *engine.Canon) (a CurrencyAmount) {
	c.Object().Need("amount")
	a.Amount = c.Int()
	c.Need("currency")
	c.Object()
	a.Currency.Code = c.StrMember("code")
	a.Currency.Name = c.StrMember("name")
	a.Currency.Symbol = c.StrMember("symbol")
	c.Need("decimals")
	a.Currency.Decimals = int(c.Int())
	c.Close()
	c.Close()
	return a
}
