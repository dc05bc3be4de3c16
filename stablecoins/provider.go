package stablecoins

import (
	"context"
	"time"

	"github.com/paygrid/payments/internal/engine"
)

// StablecoinProvider is the stablecoin issuer platform behind the
// Stablecoins area (BRALE in the reference). The engine calls it before an
// operation's transaction, never inside one, and records what it answered;
// the sandbox package implements it (sandbox.Stablecoins).
//
// A nil provider (payments.Config.Stablecoins) gives one that refuses every
// call with STABLECOIN_PROVIDER_ERROR: stablecoins are then not available.
//
// Errors: an *Error with a stablecoin code (STABLECOIN_VERIFICATION_FAILED,
// STABLECOIN_PROVIDER_ERROR, ...) is passed to the client as is; an *Error
// SERVICE_UNAVAILABLE says the provider is down (503, retry later); any
// other error is the provider failing and is answered as
// STABLECOIN_PROVIDER_ERROR.
type StablecoinProvider interface {
	// VerifyAccount checks API credentials with the provider in env and
	// returns the account they open. Refused credentials are
	// STABLECOIN_VERIFICATION_FAILED.
	VerifyAccount(ctx context.Context, env string, req LinkRequest) (ProviderAccountInfo, error)
	// Token returns the provider's record of a token the account issued,
	// looked up by its provider identifier and checked against its
	// network identifier. An unknown or mismatched token is
	// STABLECOIN_VERIFICATION_FAILED.
	Token(ctx context.Context, acct ProviderAccountRef, providerTokenID, network, networkTokenID string) (StablecoinToken, error)
	// Plan answers how the provider will carry out a mint or burn: whether
	// it waits for funding (with public funding instructions) and the
	// steps it then takes. It must not commit anything at the provider:
	// the engine records the operation and applies the steps on its clock,
	// and a provider reporting funds out of band calls
	// Service.ReportFunding.
	Plan(ctx context.Context, acct ProviderAccountRef, op StablecoinPlanRequest) (StablecoinPlan, error)
}

// ProviderAccountInfo is what the provider says about verified credentials:
// the account they open, which is linked once per platform (CONFLICT for a
// second link).
type ProviderAccountInfo struct {
	ProviderAccountID string
}

// ProviderAccountRef names a linked account in calls to the provider, with
// the credentials it was linked with. It carries the secret: a provider
// must not log or keep it.
type ProviderAccountRef struct {
	LinkID            string
	Provider          string
	Environment       string
	ProviderAccountID string
	APIClientID       string
	APIClientSecret   string
}

// StablecoinToken is the provider's record of a token: Register copies it
// into the Stablecoin it creates. Decimals decide which amounts are whole
// cents (Amount).
type StablecoinToken struct {
	Name           string
	Symbol         string
	BaseCurrency   string
	Decimals       int
	IssuanceStatus IssuanceStatus
}

// StablecoinPlanRequest is a mint or burn the engine asks the provider to
// plan. Amount is in the token's smallest unit and Cents its fiat value;
// Rail is a burn's payout rail.
type StablecoinPlanRequest struct {
	Type                    OpType
	ProviderTokenIdentifier string
	Amount                  int64
	Cents                   int64
	Source                  Source
	DestinationAccountID    string
	Rail                    string
}

// StablecoinPlan is the provider's plan for an operation. With
// FundingInstructions the operation waits in PENDING_FUNDING until the
// provider reports the funds (Service.ReportFunding), or expires after
// FundingWindow; the Steps then start (at creation when nothing is
// awaited). Each step moves the operation to Status After the previous one;
// a FAILED step carries its FailureReason.
type StablecoinPlan struct {
	FundingInstructions map[string]any
	FundingWindow       time.Duration
	Steps               []StablecoinStep
}

// StablecoinStep is one future state of an operation: After the previous
// step (or the funding), the operation moves to Status, which must be a
// move CanMove allows. A step that is not is an error where it applies:
// INVALID_STATE_TRANSITION for the operation that applies it at once, or a
// due item retried and then parked in the dead letters.
type StablecoinStep struct {
	After         time.Duration `json:"after"`
	Status        OpStatus      `json:"status"`
	FailureReason string        `json:"failureReason,omitempty"`
	ProviderState string        `json:"providerStatus,omitempty"`
}

// noStablecoins is the provider of an engine configured without one.
type noStablecoins struct{}

// err is the refusal every method answers.
func (noStablecoins) err() error {
	return engine.Errorf(CodeStablecoinProviderError, "no stablecoin provider is configured on this platform")
}

func (p noStablecoins) VerifyAccount(context.Context, string, LinkRequest) (ProviderAccountInfo, error) {
	return ProviderAccountInfo{}, p.err()
}

func (p noStablecoins) Token(context.Context, ProviderAccountRef, string, string, string) (StablecoinToken, error) {
	return StablecoinToken{}, p.err()
}

func (p noStablecoins) Plan(context.Context, ProviderAccountRef, StablecoinPlanRequest) (StablecoinPlan, error) {
	return StablecoinPlan{}, p.err()
}
