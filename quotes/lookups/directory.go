package lookups

import (
	"context"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
)

// Directory knows the world beyond the platform: who receives at a UMA
// address of another provider, and the lists behind GET /vasps,
// /discoveries and /uma-providers. The sandbox package serves the sandbox
// counterparties (sandbox.Directory). A nil Directory
// (payments.Config.Directory) knows no outside receiver and lists nothing.
//
// The engine calls it before any store transaction, never inside one, so a
// slow directory delays only the request that asked. Every error it returns
// reaches the caller as is: an *engine.Error (payments.Error) keeps its
// code, anything else answers INTERNAL_ERROR.
type Directory interface {
	// LookupUMA resolves a UMA address held outside the platform; nil (and
	// no error) when nobody receives there, which Lookups.UMA answers as
	// UMA_NOT_FOUND. Sandbox.Receive also asks it who sends from an
	// address.
	LookupUMA(ctx context.Context, address string) (*UMAReceiver, error)
	// VASPs lists the virtual-asset service providers wallets may name,
	// whole: Lookups.VASPs pages it.
	VASPs(ctx context.Context) ([]VASP, error)
	// Discoveries lists payout banks, narrowed by country and currency
	// ("" matches every one).
	Discoveries(ctx context.Context, country, currency string) ([]Discovery, error)
	// UMAProviders lists UMA providers, whole.
	UMAProviders(ctx context.Context) ([]UMAProvider, error)
}

// UMAReceiver is a receiver found at a UMA address: the currencies it
// accepts and what it requires to know of the sender, which a quote to it
// must supply in senderCustomerInfo.
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

// emptyDirectory is the Directory of an engine configured without one.
type emptyDirectory struct{}

func (emptyDirectory) LookupUMA(context.Context, string) (*UMAReceiver, error) { return nil, nil }
func (emptyDirectory) VASPs(context.Context) ([]VASP, error)                   { return nil, nil }
func (emptyDirectory) Discoveries(context.Context, string, string) ([]Discovery, error) {
	return nil, nil
}
func (emptyDirectory) UMAProviders(context.Context) ([]UMAProvider, error) { return nil, nil }

// directory returns the configured Directory or the empty one.
func directory(e *engine.Handle) Directory {
	if d := slot.Of(e).Directory; d != nil {
		return d
	}
	return Nobody
}

// Nobody is the Directory of an engine configured without one: it knows
// no receiver and lists nothing.
var Nobody Directory = emptyDirectory{}
