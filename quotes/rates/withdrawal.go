package rates

import (
	"context"
	"errors"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/quotes/pricing"
	"github.com/paygrid/payments/validate"
)

// Crypto is the crypto-withdrawal area: fee estimates for moving a crypto
// internal account's balance to a wallet. Reach it as eng.Crypto
// (payments.Crypto).
type Crypto struct{ e *engine.Handle }

// NewCrypto returns the Crypto group of h.
func NewCrypto(h *engine.Handle) Crypto { return Crypto{h} }

// WithdrawalFeeRequest asks what withdrawing Amount of Currency from a
// crypto internal account to DestinationAddress on CryptoNetwork costs
// (reference EstimateCryptoWithdrawalFeeRequest).
type WithdrawalFeeRequest struct {
	InternalAccountID  string `json:"internalAccountId"`
	Currency           string `json:"currency"`
	CryptoNetwork      string `json:"cryptoNetwork"`
	Amount             int64  `json:"amount"`
	DestinationAddress string `json:"destinationAddress"`
}

// WithdrawalFee is the estimate (reference
// EstimateCryptoWithdrawalFeeResponse). NetworkFee is in the smallest unit
// of NetworkFeeAsset and informational: the Service pays it. TotalFee and
// NetAmount are exactly the feesIncluded and totalReceivingAmount of a
// sending-locked quote of Amount from the account to a wallet of the
// currency on that network.
type WithdrawalFee struct {
	NetworkFee      int64  `json:"networkFee"`
	NetworkFeeAsset string `json:"networkFeeAsset"`
	ApplicationFee  int64  `json:"applicationFee"`
	TotalFee        int64  `json:"totalFee"`
	NetAmount       int64  `json:"netAmount"`
}

// addressCheck validates a destination address for each network: the
// same checks an external wallet account of that network gets, so an
// estimate is refused exactly where the withdrawal's quote would be.
// BITCOIN has none here and accepts any address.
var addressCheck = map[string]func(string) error{
	"SOLANA": accounts.Solana, "ETHEREUM": accounts.EVM, "BASE": accounts.EVM, "ARBITRUM": accounts.EVM,
	"POLYGON": accounts.EVM, "TRON": accounts.Tron, "SPARK": accounts.Spark,
	"LIGHTNING": func(s string) error {
		if accounts.BOLT11(s) == nil || accounts.LightningAddress(s) == nil {
			return nil
		}
		return errors.New("not a BOLT11 invoice or lightning address")
	},
}

// EstimateWithdrawalFee prices a withdrawal the way a quote from the
// internal account to a wallet prices it (the platform's fees for the
// currency pair and Compute, sending side locked): applicationFee
// is the platform's part of the quote's fees, totalFee all of them,
// netAmount what the wallet receives. An unknown account is
// ACCOUNT_NOT_FOUND; bad fields (a network that does not carry the
// currency, an address it would refuse, an account of another currency)
// are INVALID_INPUT naming each; an amount the fees swallow is
// AMOUNT_OUT_OF_RANGE.
//
// It only reads (one read transaction, after validation) and writes
// nothing, so it needs no idempotency key; the figures can differ from a
// later quote's only if the platform's fee configuration changes between
// them.
func (c Crypto) EstimateWithdrawalFee(ctx context.Context, req WithdrawalFeeRequest) (*WithdrawalFee, error) {
	return engine.Run(ctx, c.e, estimateWithdrawalFee, req)
}

// estimateWithdrawalFee is Crypto.EstimateWithdrawalFee's operation. The
// rate it prices with is fetched before its read transaction.
var estimateWithdrawalFee = engine.Op[WithdrawalFeeRequest, *WithdrawalFee, money.Rate]{Area: "quotes", Name: "Crypto.EstimateWithdrawalFee", Access: engine.Read,
	Validate: checkWithdrawalFee, Prefetch: withdrawalRate, Decide: priceWithdrawal}

// checkWithdrawalFee checks an estimate's fields, every problem at once
// (INVALID_INPUT): the network must carry the currency and accept the
// address.
func checkWithdrawalFee(req *WithdrawalFeeRequest) error {
	var fe validate.Errors
	fe.Required("internalAccountId", req.InternalAccountID)
	fe.Required("currency", req.Currency)
	if fe.Required("cryptoNetwork", req.CryptoNetwork) && fe.Enum("cryptoNetwork", req.CryptoNetwork, Networks()...) && req.Currency != "" {
		if _, ok := Network(req.CryptoNetwork, req.Currency); !ok {
			fe.Add("cryptoNetwork", nil, "%s does not carry %s", req.CryptoNetwork, req.Currency)
		}
	}
	if req.Amount < 1 || req.Amount > money.MaxAmount {
		fe.Add("amount", nil, "amount must be between 1 and %d", money.MaxAmount)
	}
	if fe.Required("destinationAddress", req.DestinationAddress) {
		if check := addressCheck[req.CryptoNetwork]; check != nil && check(req.DestinationAddress) != nil {
			fe.Add("destinationAddress", nil, "destinationAddress is not a valid %s address", req.CryptoNetwork)
		}
	}
	return engine.Invalid(fe.Err())
}

// withdrawalRate fetches the rate a quote to a wallet of the request's
// currency prices with, outside the transaction. The account must hold
// that currency (priceWithdrawal refuses it otherwise), so source and
// destination currencies are equal and Rate answers 1 without asking the
// RateSource.
func withdrawalRate(ctx context.Context, e *engine.Handle, req *WithdrawalFeeRequest, r *money.Rate, _ error) (err error) {
	*r, _, err = Rate(e, ctx, req.Currency, req.Currency)
	return err
}

// priceWithdrawal prices the withdrawal in one read transaction: the
// account (ACCOUNT_NOT_FOUND, or INVALID_INPUT when it holds another
// currency) and the platform's fees for the pair, which charge nothing
// since fees apply to cross-currency transfers only: the estimate's fees
// are zero, as the quote's would be.
func priceWithdrawal(t *engine.Txn, req *WithdrawalFeeRequest, r *money.Rate) (*WithdrawalFee, error) {
	acct, err := accounts.Internal(t, req.InternalAccountID)
	if err != nil {
		return nil, err
	}
	p, err := platform.Load(t)
	if err != nil {
		return nil, err
	}
	if acct.Currency != req.Currency {
		var fe validate.Errors
		fe.Add("currency", nil, "internal account %s holds %s, not %s", acct.ID, acct.Currency, req.Currency)
		return nil, engine.Invalid(fe)
	}
	fee, _ := Network(req.CryptoNetwork, req.Currency)
	fees := PlatformFees(p, acct.Currency, req.Currency)
	cur, _ := money.Lookup(req.Currency)
	amt, err := pricing.Compute(pricing.Input{LockedSide: pricing.Sending, Amount: req.Amount, Rate: r.Decimal(),
		SendingDecimals: cur.Decimals, ReceivingDecimals: cur.Decimals, Fees: fees})
	if err != nil {
		return nil, engine.Errorf(engine.CodeAmountOutOfRange, "the amount does not cover the fees of this withdrawal")
	}
	return &WithdrawalFee{NetworkFee: fee.Amount, NetworkFeeAsset: fee.Asset, ApplicationFee: amt.PlatformFees,
		TotalFee: amt.FeesIncluded, NetAmount: amt.Receiving}, nil
}
