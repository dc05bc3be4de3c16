package accounts

import (
	"context"
	"iter"
	"strings"

	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/mr-tron/base58"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/validate"
)

// tableDepositReferences maps a funding reference (DepositReference) to
// its internal account; each account opened inserts its entry. Exported
// for package wallets, which opens embedded wallets itself.
const tableDepositReferences = "deposit_references"

// CurrencyAmount is an amount with its currency (reference CurrencyAmount).
type CurrencyAmount struct {
	Amount   int64        `json:"amount"`
	Currency CurrencyInfo `json:"currency"`
}

// CurrencyInfo describes a currency (reference Currency).
type CurrencyInfo struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"`
}

// AmountOf is n minor units of currency with the currency's description.
// It does not fail: every stored currency was checked when it was
// accepted, and an unknown code gets a zero CurrencyInfo (its code too).
func AmountOf(currency string, n int64) CurrencyAmount {
	c, _ := money.Lookup(currency)
	return CurrencyAmount{Amount: n, Currency: CurrencyInfo{Code: c.Code, Name: c.Name, Symbol: c.Symbol, Decimals: c.Decimals}}
}

// PaymentInstructions tell a payer how to fund an account or a quote
// (reference PaymentInstructions). AccountOrWalletInfo is the shape of an
// accountInfo: a bank account with its reference, or a wallet address.
type PaymentInstructions struct {
	InstructionsNotes   string         `json:"instructionsNotes,omitempty"`
	IsPlatformAccount   bool           `json:"isPlatformAccount,omitempty"`
	AccountOrWalletInfo map[string]any `json:"accountOrWalletInfo"`
}

// InternalAccountView is an internal account as the API shows it: its
// available balance (balance), available plus held (totalBalance), and how
// to fund it.
type InternalAccountView struct {
	InternalAccount
	Balance                    CurrencyAmount        `json:"balance"`
	TotalBalance               CurrencyAmount        `json:"totalBalance"`
	FundingPaymentInstructions []PaymentInstructions `json:"fundingPaymentInstructions"`
}

// DepositReference is the unique reference a payer quotes to fund account
// id: "PG" and the last 14 hex digits of its UUID, upper case, short
// enough for a bank transfer's reference field. id must be an
// "InternalAccount:<uuid>" id.
func DepositReference(id string) string {
	u := strings.ReplaceAll(strings.TrimPrefix(id, "InternalAccount:"), "-", "")
	return "PG" + strings.ToUpper(u[len(u)-14:])
}

// FundingInstructions are the sandbox's instructions for funding a: a
// fixed sandbox bank account per currency (the reference tells deposits
// apart), or a wallet address derived from the account's id for USDC,
// USDT (Solana), BTC and USDB (Spark). They depend on the id alone, which
// lets AppendView cache them.
func FundingInstructions(a *InternalAccount) []PaymentInstructions {
	ref := DepositReference(a.ID)
	seed := []byte(strings.ReplaceAll(strings.TrimPrefix(a.ID, "InternalAccount:"), "-", ""))[:32]
	info := map[string]any{"reference": ref}
	switch a.Currency {
	case "USD":
		info = map[string]any{"accountType": "USD_ACCOUNT", "accountNumber": "8" + ref[len(ref)-11:], "routingNumber": "021000021",
			"bankName": "Sandbox Bank", "paymentRails": []string{"ACH", "WIRE", "RTP", "FEDNOW"}}
	case "EUR":
		info = map[string]any{"accountType": "EUR_ACCOUNT", "iban": "DE89370400440532013000", "swiftCode": "DEUTDEFF", "paymentRails": []string{"SEPA", "SEPA_INSTANT"}}
	case "MXN":
		info = map[string]any{"accountType": "MXN_ACCOUNT", "clabeNumber": "032180000118359719", "paymentRails": []string{"SPEI"}}
	case "GBP":
		info = map[string]any{"accountType": "GBP_ACCOUNT", "sortCode": "040004", "accountNumber": "12345678", "paymentRails": []string{"FASTER_PAYMENTS"}}
	case "USDC", "USDT":
		return []PaymentInstructions{{AccountOrWalletInfo: map[string]any{"accountType": "SOLANA_WALLET", "address": base58.Encode(seed), "assetType": a.Currency}}}
	case "BTC", "USDB": // Spark carries both (SPARK_WALLET with assetType USDB)
		data, _ := bech32.ConvertBits(append([]byte{0x0a, 33, 0x02}, seed...), 8, 5, true)
		addr, _ := bech32.EncodeM("sparkrt", data)
		return []PaymentInstructions{{AccountOrWalletInfo: map[string]any{"accountType": "SPARK_WALLET", "address": addr, "assetType": a.Currency}}}
	default:
		info = map[string]any{"accountType": "SWIFT_ACCOUNT", "country": "US", "swiftCode": "CHASUS33", "bankName": "Sandbox Bank",
			"accountHolderName": "Sandbox FBO " + a.Owner(), "accountNumber": "8" + ref[len(ref)-11:], "paymentRails": []string{"SWIFT"}}
	}
	info["reference"] = ref
	return []PaymentInstructions{{InstructionsNotes: "Quote the reference " + ref + " so the deposit reaches this account.",
		IsPlatformAccount: a.CustomerID == "", AccountOrWalletInfo: info}}
}

// InternalAccountFilter narrows Service.ListInternal; zero members match
// everything.
type InternalAccountFilter struct {
	CustomerID string
	Currency   string
	Type       AccountType
}

// ListInternal lists the internal accounts of scope, the customers'
// (CustomerScope) or the platform's own (PlatformScope), oldest first,
// with their balances, from the index that narrows the filter most. An
// unknown type, or a malformed cursor or limit, is INVALID_INPUT.
func (as Service) ListInternal(ctx context.Context, f InternalAccountFilter, scope Scope, p engine.ListParams) (engine.Page[InternalAccountView], error) {
	return engine.Run(ctx, as.e, listInternal, internalQuery{f, scope, p})
}

// internalQuery is a ListInternal request.
type internalQuery struct {
	f     InternalAccountFilter
	scope Scope
	p     engine.ListParams
}

// listInternal is Service.ListInternal's operation.
var listInternal = engine.Op[internalQuery, engine.Page[InternalAccountView], struct{}]{Area: "accounts", Name: "ListInternal", Access: engine.Read,
	Validate: func(in *internalQuery) error {
		var fe validate.Errors
		fe.Enum("type", string(in.f.Type), string(InternalFiat), string(InternalCrypto), "EMBEDDED_WALLET")
		return engine.Invalid(fe.Err())
	},
	Decide: func(t *engine.Txn, in *internalQuery, _ *struct{}) (engine.Page[InternalAccountView], error) {
		f, platform := in.f, in.scope == PlatformScope
		q := engine.ListQuery[InternalAccount]{Table: tableInternalAccounts, Index: ixSide, Value: sideOf(platform),
			Match: func(a *InternalAccount) bool {
				return (a.CustomerID == "") == platform && (f.CustomerID == "" || a.CustomerID == f.CustomerID) &&
					(f.Currency == "" || a.Currency == f.Currency) && (f.Type == "" || a.Type == f.Type)
			}}
		page, err := engine.List(t, q.Narrowest([2]string{ixCustomer, f.CustomerID}, [2]string{ixCurrency, currencyValue(platform, f.Currency)}), in.p)
		if err != nil {
			return engine.Page[InternalAccountView]{}, err
		}
		return engine.MapPage(page, func(a *InternalAccount) (*InternalAccountView, error) { return View(t, a) })
	}}

// ListInternalAll walks every page of ListInternal from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (as Service) ListInternalAll(ctx context.Context, f InternalAccountFilter, scope Scope, p engine.ListParams) iter.Seq2[InternalAccountView, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[InternalAccountView], error) {
		return as.ListInternal(ctx, f, scope, p)
	})
}

// Internal returns one internal account with its balances:
// ACCOUNT_NOT_FOUND for an unknown id. It does not take a Scope: a
// customer's account and the platform's are both found.
func (as Service) Internal(ctx context.Context, id string) (*InternalAccountView, error) {
	return engine.Run(ctx, as.e, getInternal, id)
}

// getInternal is Service.Internal's operation.
var getInternal = engine.Op[string, *InternalAccountView, struct{}]{Area: "accounts", Name: "Internal", Access: engine.Read,
	Decide: func(t *engine.Txn, id *string, _ *struct{}) (*InternalAccountView, error) {
		a, err := Internal(t, *id)
		if err != nil {
			return nil, err
		}
		return View(t, a)
	}}

// Sandbox is the accounts area's part of the sandbox operations: funding
// internal accounts with a bare credit. The facade's eng.Sandbox.Fund
// (payments.Sandbox) records the funding as a deposit instead, with its
// INCOMING transaction (package quotes, Sandbox.Fund); the type is
// re-exported as payments.SandboxAccounts.
type Sandbox struct{ e *engine.Handle }

// NewSandbox returns the accounts area's sandbox group of h.
func NewSandbox(h *engine.Handle) Sandbox { return Sandbox{h} }

// MaxSandboxFunding caps one sandbox funding, in minor units.
const MaxSandboxFunding int64 = 100_000_000_000

// Fund credits amount (minor units) to an internal account from the
// sandbox funding source and emits INTERNAL_ACCOUNT.BALANCE_UPDATED, in one
// transaction through engine.Once: a retry with the same idempotency key
// credits once. FORBIDDEN outside sandbox engines, INVALID_INPUT for an
// amount outside 1..MaxSandboxFunding, ACCOUNT_NOT_FOUND for an unknown
// account. The credit is one balanced ledger entry against
// SandboxFundingAccount.
func (s Sandbox) Fund(ctx context.Context, id string, amount int64) (*InternalAccountView, error) {
	return engine.Run(ctx, s.e, fund, funding{id, amount})
}

// funding is a Sandbox.Fund request.
type funding struct {
	id     string
	amount int64
}

// fund is Sandbox.Fund's operation.
var fund = engine.Op[funding, *InternalAccountView, struct{}]{Area: "accounts", Name: "Sandbox.Fund",
	Fingerprint: func(f *funding) any { return []any{f.id, f.amount} },
	Prefetch: func(_ context.Context, e *engine.Handle, f *funding, _ *struct{}, _ error) error {
		if err := e.RequireSandbox(); err != nil {
			return err
		}
		var fe validate.Errors
		if f.amount < 1 || f.amount > MaxSandboxFunding {
			fe.Add("amount", nil, "amount must be between 1 and %d", MaxSandboxFunding)
			return engine.Invalid(fe)
		}
		return nil
	},
	Decide: func(t *engine.Txn, f *funding, _ *struct{}) (out *InternalAccountView, err error) {
		id, amount := f.id, f.amount
		a, err := Internal(t, id)
		if err != nil {
			return out, err
		}
		eid := t.NewID("LedgerEntry")
		if err := engine.Post(t, engine.LedgerEntry{ID: eid, Reference: id, CreatedAt: t.Now,
			Postings: Transfer(SandboxFundingAccount, a.ID, a.Currency, amount)}); err != nil {
			return out, err
		}
		if out, err = View(t, a); err != nil {
			return out, err
		}
		return out, t.Emit(EventInternalAccountBalanceUpdated, out)
	}}
