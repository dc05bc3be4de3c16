package accounts

import "github.com/paygrid/payments/internal/engine"

// The hand-written codec of amounts (see encode.go and decode.go), nested
// in every transaction and account view.

func AppendCurrencyAmount(b []byte, a *CurrencyAmount) []byte {
	b = engine.IntMember(append(b, '{'), "amount", a.Amount)
	return append(AppendCurrencyInfo(engine.Member(b, "currency"), &a.Currency), '}')
}

func AppendCurrencyInfo(b []byte, c *CurrencyInfo) []byte {
	b = engine.StringMember(append(b, '{'), "code", c.Code, false)
	b = engine.StringMember(b, "name", c.Name, false)
	b = engine.StringMember(b, "symbol", c.Symbol, false)
	return append(engine.IntMember(b, "decimals", int64(c.Decimals)), '}')
}

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
