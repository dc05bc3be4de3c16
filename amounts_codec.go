package payments

// The hand-written codec of amounts (see encode.go and decode.go), nested
// in every transaction and account view.

func appendCurrencyAmount(b []byte, a *CurrencyAmount) []byte {
	b = intMember(append(b, '{'), "amount", a.Amount)
	return append(appendCurrencyInfo(member(b, "currency"), &a.Currency), '}')
}

func appendCurrencyInfo(b []byte, c *CurrencyInfo) []byte {
	b = stringMember(append(b, '{'), "code", c.Code, false)
	b = stringMember(b, "name", c.Name, false)
	b = stringMember(b, "symbol", c.Symbol, false)
	return append(intMember(b, "decimals", int64(c.Decimals)), '}')
}

func readAmount(c *canon) (a CurrencyAmount) {
	c.object().need("amount")
	a.Amount = c.int()
	c.need("currency")
	c.object()
	a.Currency.Code = c.strMember("code")
	a.Currency.Name = c.strMember("name")
	a.Currency.Symbol = c.strMember("symbol")
	c.need("decimals")
	a.Currency.Decimals = int(c.int())
	c.close()
	c.close()
	return a
}
