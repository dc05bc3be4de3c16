package quotes

import (
	"context"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
)

// Directory knows the world beyond the platform: who receives at a UMA
// address of another provider, and the lists behind GET /vasps,
// /discoveries and /uma-providers. The sandbox package serves the sandbox
// counterparties (sandbox.Directory). A nil Config.Directory knows no
// outside receiver and lists nothing.
type Directory interface {
	// Lookups.UMA resolves a UMA address held outside the platform; nil (and
	// no error) when nobody receives there.
	LookupUMA(ctx context.Context, address string) (*UMAReceiver, error)
	// VASPs lists the virtual-asset service providers wallets may name.
	VASPs(ctx context.Context) ([]VASP, error)
	// Discoveries lists payout banks, narrowed by country and currency.
	Discoveries(ctx context.Context, country, currency string) ([]Discovery, error)
	// UMAProviders lists UMA providers.
	UMAProviders(ctx context.Context) ([]UMAProvider, error)
}

// UMAReceiver is a receiver found at a UMA address.
type UMAReceiver struct {
	Currencies              []string
	RequiredPayerDataFields []PayerDataField
}

// VASP is a virtual-asset service provider (reference Vasp).
type VASP struct {
	VaspName string `json:"vaspName"`
	URL      string `json:"url,omitempty"`
}

// Discovery is a payout bank (GET /discoveries).
type Discovery struct {
	BankName    string `json:"bankName"`
	DisplayName string `json:"displayName"`
	Country     string `json:"country"`
	Currency    string `json:"currency"`
}

// UMAProvider is a UMA provider (reference UmaProvider).
type UMAProvider struct {
	Name                string                  `json:"name"`
	SupportedRegions    []string                `json:"supportedRegions"`
	Domain              string                  `json:"domain"`
	LogoURL             string                  `json:"logoUrl,omitempty"`
	SupportedCurrencies []accounts.CurrencyInfo `json:"supportedCurrencies"`
	LEI                 string                  `json:"lei,omitempty"`
	AllowListStatus     bool                    `json:"allowListStatus"`
}

type emptyDirectory struct{}

func (emptyDirectory) LookupUMA(context.Context, string) (*UMAReceiver, error) { return nil, nil }
func (emptyDirectory) VASPs(context.Context) ([]VASP, error)                   { return nil, nil }
func (emptyDirectory) Discoveries(context.Context, string, string) ([]Discovery, error) {
	return nil, nil
}
func (emptyDirectory) UMAProviders(context.Context) ([]UMAProvider, error) { return nil, nil }

// directory returns the configured Directory or the empty one.
func directory(e *engine.Handle) Directory {
	if quotesSlot.Of(e).Directory == nil {
		return emptyDirectory{}
	}
	return quotesSlot.Of(e).Directory
}
