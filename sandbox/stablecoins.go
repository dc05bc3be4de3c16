package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"time"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/stablecoins"
)

// Stablecoins is the sandbox's stablecoin provider (a stand-in for BRALE).
// The reference defines no stablecoin magic values, so these are ours:
//
//   - Credentials: an apiClientSecret shorter than 8 characters or
//     containing "invalid" is refused (STABLECOIN_VERIFICATION_FAILED).
//     Without providerAccountId the account id is derived from the client id.
//   - Tokens: providerTokenIdentifier is SYMBOL or SYMBOL.variant (upper-case
//     symbol of 2 to 10 characters); the symbol is the part before the dot,
//     so "ACME" and "ACME.v2" share a symbol. networkTokenIdentifier must
//     start with "btkn" (a Spark token identifier). Every token has 6
//     decimals and base currency USD; a symbol ending in PEND is
//     PENDING_REVIEW, one ending in REJ is REJECTED, others PROVISIONED.
//     Anything else is STABLECOIN_VERIFICATION_FAILED.
//   - Operations, by the last three digits of the amount in cents: 503 is
//     the provider being down (503 SERVICE_UNAVAILABLE), 500 a provider
//     error (STABLECOIN_PROVIDER_ERROR), 002 an operation that FAILS at its
//     last step; others COMPLETE.
//   - Lifecycles: a wire mint and an external-wallet burn wait in
//     PENDING_FUNDING (72 h and 24 h) until funded, then go PROCESSING after
//     1 minute and COMPLETED 5 minutes later. ACH mints and burns from the
//     provider balance go CREATED, PENDING_PROVIDER after 1 minute,
//     PROCESSING after 2 more, COMPLETED 10 minutes later.
type Stablecoins struct{}

var _ payments.StablecoinProvider = Stablecoins{}

// VerifyAccount implements payments.StablecoinProvider.
func (Stablecoins) VerifyAccount(_ context.Context, _ string, req stablecoins.LinkRequest) (payments.ProviderAccountInfo, error) {
	if len(req.APIClientSecret) < 8 || strings.Contains(req.APIClientSecret, "invalid") {
		return payments.ProviderAccountInfo{}, payments.Errorf(payments.CodeStablecoinVerificationFailed, "the provider refused these API credentials")
	}
	id := req.ProviderAccountID
	if id == "" {
		sum := sha256.Sum256([]byte(req.APIClientID))
		id = "brale-" + hex.EncodeToString(sum[:6])
	}
	return payments.ProviderAccountInfo{ProviderAccountID: id}, nil
}

var reToken = regexp.MustCompile(`^([A-Z][A-Z0-9]{1,9})(\.[A-Za-z0-9]+)?$`)

// Token implements payments.StablecoinProvider.
func (Stablecoins) Token(_ context.Context, _ payments.ProviderAccountRef, providerTokenID, _, networkTokenID string) (payments.StablecoinToken, error) {
	m := reToken.FindStringSubmatch(providerTokenID)
	if m == nil {
		return payments.StablecoinToken{}, payments.Errorf(payments.CodeStablecoinVerificationFailed, "the provider has no token %s", providerTokenID)
	}
	if !strings.HasPrefix(networkTokenID, "btkn") {
		return payments.StablecoinToken{}, payments.Errorf(payments.CodeStablecoinVerificationFailed, "%s is not the Spark token identifier of %s", networkTokenID, providerTokenID)
	}
	sym := m[1]
	status := stablecoins.IssuanceProvisioned
	switch {
	case strings.HasSuffix(sym, "PEND"):
		status = stablecoins.IssuancePendingReview
	case strings.HasSuffix(sym, "REJ"):
		status = stablecoins.IssuanceRejected
	}
	return payments.StablecoinToken{Name: sym + " Dollar", Symbol: sym, BaseCurrency: "USD", Decimals: 6, IssuanceStatus: status}, nil
}

// Plan implements payments.StablecoinProvider.
func (Stablecoins) Plan(_ context.Context, _ payments.ProviderAccountRef, op payments.StablecoinPlanRequest) (payments.StablecoinPlan, error) {
	switch op.Cents % 1000 {
	case 503:
		return payments.StablecoinPlan{}, payments.Errorf(payments.CodeServiceUnavailable, "the stablecoin provider is temporarily unavailable")
	case 500:
		return payments.StablecoinPlan{}, payments.Errorf(payments.CodeStablecoinProviderError, "the stablecoin provider rejected the operation")
	}
	last := payments.StablecoinStep{Status: stablecoins.OpCompleted, ProviderState: "complete"}
	if op.Cents%1000 == 2 {
		last = payments.StablecoinStep{Status: stablecoins.OpFailed, ProviderState: "failed", FailureReason: "PROVIDER_REJECTED"}
	}
	funded := func(instructions map[string]any, window time.Duration) payments.StablecoinPlan {
		last.After = 5 * time.Minute
		return payments.StablecoinPlan{FundingInstructions: instructions, FundingWindow: window, Steps: []payments.StablecoinStep{
			{After: time.Minute, Status: stablecoins.OpProcessing, ProviderState: "processing"}, last}}
	}
	switch {
	case op.Type == stablecoins.Mint && op.Source.Type == stablecoins.SourceWire:
		return funded(map[string]any{"rail": "WIRE", "bankName": "Sandbox Trust Bank", "accountNumber": "000123456789",
			"routingNumber": "021000021", "beneficiaryName": "Brale Inc. FBO " + op.ProviderTokenIdentifier,
			"amount": op.Cents, "currency": "USD"}, 72*time.Hour), nil
	case op.Type == stablecoins.Burn && op.Source.Type == stablecoins.SourceExternalAccount:
		return funded(map[string]any{"rail": "SPARK", "network": "SPARK", "address": "sparkrt1sandboxdeposit" + strings.ToLower(op.ProviderTokenIdentifier),
			"valueType": op.ProviderTokenIdentifier}, 24*time.Hour), nil
	}
	last.After = 10 * time.Minute
	return payments.StablecoinPlan{Steps: []payments.StablecoinStep{
		{After: time.Minute, Status: stablecoins.OpPendingProvider, ProviderState: "pending"},
		{After: 2 * time.Minute, Status: stablecoins.OpProcessing, ProviderState: "processing"}, last}}, nil
}
