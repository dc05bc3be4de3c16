package stablecoins

import (
	"errors"
	"fmt"
	"strings"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/validate"
)

// ErrExternalNotSupported means an external account of a kind the
// operation cannot use (STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED).
var ErrExternalNotSupported = errors.New("external account not supported")

// MaxDescription is the longest operation description, in bytes.
const MaxDescription = 1024

// Validate checks a link request's fields, all at once: the field errors
// the Service answers as INVALID_INPUT.
func (r *LinkRequest) Validate() error {
	var fe validate.Errors
	if fe.Required("provider", r.Provider) {
		fe.Enum("provider", r.Provider, ProviderBrale)
	}
	if fe.Required("apiClientId", r.APIClientID) {
		fe.MaxLen("apiClientId", r.APIClientID, 255)
	}
	if fe.Required("apiClientSecret", r.APIClientSecret) {
		fe.MaxLen("apiClientSecret", r.APIClientSecret, 1024)
	}
	fe.MaxLen("providerAccountId", r.ProviderAccountID, 255)
	return fe.Err()
}

// Validate checks a register request's fields, all at once.
func (r *RegisterRequest) Validate() error {
	var fe validate.Errors
	if fe.Required("providerTokenIdentifier", r.ProviderTokenIdentifier) {
		fe.MaxLen("providerTokenIdentifier", r.ProviderTokenIdentifier, 255)
	}
	if fe.Required("networkTokenIdentifier", r.NetworkTokenIdentifier) {
		fe.MaxLen("networkTokenIdentifier", r.NetworkTokenIdentifier, 255)
	}
	if fe.Required("network", r.Network) {
		fe.Enum("network", r.Network, NetworkSpark)
	}
	return fe.Err()
}

// Validate checks a mint request's shape, all at once (the amount's
// representability needs the token and is checked by Amount).
func (r *MintRequest) Validate() error {
	var fe validate.Errors
	amountShape(&fe, r.Amount)
	s := r.FundingSource
	if fe.Required("fundingSource.type", s.Type) &&
		fe.Enum("fundingSource.type", s.Type, SourceWire, SourceACHDebit, SourceSameDayACHDebit, SourceServiceInternal, SourceProviderBalance) {
		switch s.Type {
		case SourceACHDebit, SourceSameDayACHDebit:
			fe.Required("fundingSource.externalAccountId", s.ExternalAccountID)
		case SourceServiceInternal:
			fe.Required("fundingSource.accountId", s.AccountID)
		case SourceProviderBalance:
			fe.Required("fundingSource.sourceTokenIdentifier", s.SourceTokenIdentifier)
			fe.Required("fundingSource.cryptoNetwork", s.CryptoNetwork)
		}
	}
	if fe.Required("destination.accountId", r.Destination.AccountID) &&
		!strings.HasPrefix(r.Destination.AccountID, "ExternalAccount:") && !strings.HasPrefix(r.Destination.AccountID, "InternalAccount:") {
		fe.Add("destination.accountId", nil, "destination.accountId must be an ExternalAccount: or InternalAccount: id")
	}
	fe.MaxLen("description", r.Description, MaxDescription)
	return fe.Err()
}

// Validate checks a burn request's shape, all at once.
func (r *BurnRequest) Validate() error {
	var fe validate.Errors
	amountShape(&fe, r.Amount)
	if fe.Required("source.type", r.Source.Type) &&
		fe.Enum("source.type", r.Source.Type, SourceExternalAccount, SourceServiceInternal, SourceProviderBalance) &&
		r.Source.Type == SourceServiceInternal {
		fe.Required("source.accountId", r.Source.AccountID)
	}
	d := r.Destination
	if fe.Required("destination.type", d.Type) {
		fe.Enum("destination.type", d.Type, SourceExternalAccount)
	}
	fe.Required("destination.externalAccountId", d.ExternalAccountID)
	if fe.Required("destination.rail", d.Rail) {
		fe.Enum("destination.rail", d.Rail, PayoutRails...)
	}
	fe.MaxLen("description", r.Description, MaxDescription)
	return fe.Err()
}

// amountShape checks a digit-string amount without the token.
func amountShape(fe *validate.Errors, s string) {
	if _, _, err := Amount("amount", s, FiatDecimals); err != nil {
		var v validate.Errors
		if errors.As(err, &v) {
			*fe = append(*fe, v...)
		}
	}
}

// CheckMint decides whether coin may mint from the request's funding
// source to its destination: the token must be PROVISIONED; a
// Service-managed source or destination needs the stablecoin ENABLED for
// the Service's operations and is reserved for a later flow even then, as
// is funding from the provider's balance.
func CheckMint(coin *Stablecoin, r *MintRequest) error {
	if coin.IssuanceStatus != IssuanceProvisioned {
		return fmt.Errorf("%w: %s is %s at the provider", ErrNotProvisioned, coin.Symbol, coin.IssuanceStatus)
	}
	if r.FundingSource.Type == SourceServiceInternal || strings.HasPrefix(r.Destination.AccountID, "InternalAccount:") {
		if coin.ServiceOperationsStatus != OpsEnabled {
			return fmt.Errorf("%w: %s is %s; Service-managed accounts need it ENABLED", ErrOpsNotEnabled, coin.Symbol, coin.ServiceOperationsStatus)
		}
		return fmt.Errorf("%w: mints with Service-managed accounts are reserved for a later release", ErrOpNotSupported)
	}
	if r.FundingSource.Type == SourceProviderBalance {
		return fmt.Errorf("%w: mints funded from the provider's balance are reserved for a later release", ErrOpNotSupported)
	}
	return nil
}

// CheckBurn decides whether coin may burn from the request's source: the
// token must be PROVISIONED; a Service internal account source needs the
// stablecoin ENABLED and is reserved even then.
func CheckBurn(coin *Stablecoin, r *BurnRequest) error {
	if coin.IssuanceStatus != IssuanceProvisioned {
		return fmt.Errorf("%w: %s is %s at the provider", ErrNotProvisioned, coin.Symbol, coin.IssuanceStatus)
	}
	if r.Source.Type == SourceServiceInternal {
		if coin.ServiceOperationsStatus != OpsEnabled {
			return fmt.Errorf("%w: %s is %s; burning from a Service internal account needs it ENABLED", ErrOpsNotEnabled, coin.Symbol, coin.ServiceOperationsStatus)
		}
		return fmt.Errorf("%w: burns from Service internal accounts are reserved for a later release", ErrBurnSourceNotSupported)
	}
	return nil
}

// External-account roles in an operation.
const (
	RoleMintFunding     = "fundingSource.externalAccountId"
	RoleMintDestination = "destination.accountId"
	RoleBurnDestination = "destination.externalAccountId"
)

// CheckExternal decides whether an external account of accountType and
// currency can play role for a token based on baseCurrency: an ACH debit
// source and a burn payout are bank accounts in the base currency (a burn
// payout also on a rail the account supports, given by rails); a mint
// destination is a Spark wallet.
func CheckExternal(role, accountType, currency, baseCurrency, rail string, rails []string) error {
	switch role {
	case RoleMintDestination:
		if accountType != "SPARK_WALLET" {
			return fmt.Errorf("%w: minted tokens go to a SPARK_WALLET external account, not %s", ErrExternalNotSupported, accountType)
		}
	case RoleMintFunding, RoleBurnDestination:
		if currency != baseCurrency || len(rails) == 0 {
			return fmt.Errorf("%w: a %s bank account is needed, not %s (%s)", ErrExternalNotSupported, baseCurrency, accountType, currency)
		}
		if role == RoleBurnDestination && !railServes(rail, rails) {
			return fmt.Errorf("%w: the account is not reachable by %s (it takes %s)", ErrExternalNotSupported, rail, strings.Join(rails, ", "))
		}
	}
	return nil
}

// railServes reports whether a payout rail reaches an account with rails.
func railServes(rail string, rails []string) bool {
	want := map[string]string{"WIRE": "WIRE", "ACH_CREDIT": "ACH", "SAME_DAY_ACH_CREDIT": "ACH", "RTP_CREDIT": "RTP"}[rail]
	for _, r := range rails {
		if r == want {
			return true
		}
	}
	return false
}

// Timing is the static estimate of a payout rail.
func Timing(rail string) string {
	switch rail {
	case "WIRE":
		return "same business day"
	case "SAME_DAY_ACH_CREDIT":
		return "same business day"
	case "RTP_CREDIT":
		return "seconds"
	}
	return "1-3 business days"
}

// Reserve is the ledger account of a stablecoin's reserve. It holds the
// fiat backing of the tokens in circulation: a mint adds the fiat it
// received, a burn pays its fiat value out of it, so a burn can never pay
// out more than was minted (the ledger refuses a negative reserve, as it
// refuses any internal account going below zero). The other accounts of
// the postings below are external: the funding and payout rails, which
// may go negative as the world beyond the ledger.
func Reserve(coinID string) string { return "reserve:" + coinID }

// MintPostings move a completed mint's fiat value from its funding rail
// into the reserve.
func MintPostings(coinID, fundingType, currency string, cents int64) []accounts.Posting {
	return accounts.Transfer(accounts.ExternalPrefix+"stablecoin-funding:"+fundingType, Reserve(coinID), currency, cents)
}

// BurnHoldPostings reserve a new burn's fiat value so that concurrent
// burns cannot both spend it: the hold is posted when the burn is created,
// before the provider acts, and fails with INSUFFICIENT_FUNDS when the
// reserve does not cover it.
func BurnHoldPostings(coinID, currency string, cents int64) []accounts.Posting {
	return accounts.Transfer(Reserve(coinID), accounts.Held(Reserve(coinID)), currency, cents)
}

// BurnPayoutPostings pay a completed burn's held value out on its rail.
func BurnPayoutPostings(coinID, rail, currency string, cents int64) []accounts.Posting {
	return accounts.Transfer(accounts.Held(Reserve(coinID)), accounts.ExternalPrefix+"stablecoin-payout:"+rail, currency, cents)
}

// BurnReleasePostings return a failed or expired burn's held value.
func BurnReleasePostings(coinID, currency string, cents int64) []accounts.Posting {
	return accounts.Transfer(accounts.Held(Reserve(coinID)), Reserve(coinID), currency, cents)
}
