package payments

import "context"

// KYCProvider verifies customers. The engine asks it for the status of a new
// customer and for the outcome of a verification submission; it keeps the
// resulting state itself. The sandbox package implements the spec's suffix
// rules (spec 3.3); a production adapter calls a real provider.
//
// The customers area refines this port; its methods return *Error values for
// business failures and plain errors for outages.
type KYCProvider interface {
	// InitialStatus returns the kycStatus (individuals) or kybStatus
	// (businesses) a customer gets at creation on a platform of the given
	// kind.
	InitialStatus(ctx context.Context, c *Customer, p *PlatformConfig) (KYCStatus, error)
}

// defaultKYC is the provider of an engine configured without one.
type defaultKYC struct{}

func (defaultKYC) InitialStatus(_ context.Context, c *Customer, p *PlatformConfig) (KYCStatus, error) {
	return KYCUnverified, nil
}
