package sandbox

import (
	"context"
	"strings"

	"github.com/paygrid/payments"
)

// UMA test addresses of the sandbox counterparty; either sandbox domain
// works (the reference's own, and ours without its maker's name).
const (
	UMASuccessUSD       = "$success.usd@sandbox.uma.money"
	UMASuccessEUR       = "$success.eur@sandbox.uma.money"
	UMASuccessMXN       = "$success.mxn@sandbox.uma.money"
	UMAPendingLongUSD   = "$pending.long.usd@sandbox.uma.money"
	UMAFailComplianceUS = "$fail.compliance.usd@sandbox.uma.money"
)

// umaReceivers maps a test address's user part to its currency.
var umaReceivers = map[string]string{
	"success.usd": "USD", "success.eur": "EUR", "success.mxn": "MXN", "pending.long.usd": "USD", "fail.compliance.usd": "USD",
}

// UMAUser returns the user part of a sandbox test address and whether the
// address is on a sandbox domain.
func UMAUser(address string) (string, bool) {
	user, domain, ok := strings.Cut(strings.TrimPrefix(address, "$"), "@")
	return user, ok && (domain == "sandbox.uma.money" || domain == "sandbox.grid.uma.money")
}

// Directory is the sandbox Directory: the UMA test addresses (each asks for
// the sender's FULL_NAME), and fixed lists of VASPs, banks and providers.
type Directory struct{}

var _ payments.Directory = Directory{}

// LookupUMA implements payments.Directory.
func (Directory) LookupUMA(_ context.Context, address string) (*payments.UMAReceiver, error) {
	user, ok := UMAUser(address)
	cur, known := umaReceivers[user]
	if !ok || !known {
		return nil, nil
	}
	return &payments.UMAReceiver{Currencies: []string{cur},
		RequiredPayerDataFields: []payments.PayerDataField{{Name: "FULL_NAME", Mandatory: true}, {Name: "COUNTRY_OF_RESIDENCE", Mandatory: false}}}, nil
}

// VASPs implements payments.Directory.
func (Directory) VASPs(context.Context) ([]payments.VASP, error) {
	return []payments.VASP{{VaspName: "Coinbase", URL: "https://www.coinbase.com"}, {VaspName: "Kraken", URL: "https://www.kraken.com"},
		{VaspName: "Bitstamp", URL: "https://www.bitstamp.net"}}, nil
}

var banks = []payments.Discovery{
	{BankName: "BDO Unibank", DisplayName: "BDO", Country: "PH", Currency: "PHP"},
	{BankName: "BPI", DisplayName: "Bank of the Philippine Islands", Country: "PH", Currency: "PHP"},
	{BankName: "BBVA Mexico", DisplayName: "BBVA", Country: "MX", Currency: "MXN"},
	{BankName: "Banorte", DisplayName: "Banorte", Country: "MX", Currency: "MXN"},
	{BankName: "HDFC Bank", DisplayName: "HDFC", Country: "IN", Currency: "INR"},
	{BankName: "Access Bank", DisplayName: "Access Bank", Country: "NG", Currency: "NGN"},
	{BankName: "Itau Unibanco", DisplayName: "Itaú", Country: "BR", Currency: "BRL"},
}

// Discoveries implements payments.Directory.
func (Directory) Discoveries(_ context.Context, country, currency string) ([]payments.Discovery, error) {
	out := []payments.Discovery{}
	for _, b := range banks {
		if (country == "" || b.Country == country) && (currency == "" || b.Currency == currency) {
			out = append(out, b)
		}
	}
	return out, nil
}

// UMAProviders implements payments.Directory.
func (Directory) UMAProviders(context.Context) ([]payments.UMAProvider, error) {
	return []payments.UMAProvider{
		{Name: "Sandbox UMA", SupportedRegions: []string{"US", "EU", "MX"}, Domain: "sandbox.uma.money", SupportedCurrencies: []payments.CurrencyInfo{
			{Code: "USD", Name: "US Dollar", Symbol: "$", Decimals: 2}, {Code: "EUR", Name: "Euro", Symbol: "€", Decimals: 2},
			{Code: "MXN", Name: "Mexican Peso", Symbol: "$", Decimals: 2}}, AllowListStatus: true},
		{Name: "Sandbox UMA (Service domain)", SupportedRegions: []string{"US"}, Domain: "sandbox.grid.uma.money", SupportedCurrencies: []payments.CurrencyInfo{
			{Code: "USD", Name: "US Dollar", Symbol: "$", Decimals: 2}}, AllowListStatus: true},
	}, nil
}
