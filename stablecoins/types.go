package stablecoins

import "time"

// ProviderBrale names the one stablecoin provider (reference
// StablecoinProvider), the only value LinkRequest.Provider accepts.
const ProviderBrale = "BRALE"

// NetworkSpark is the only stablecoin network family (reference
// StablecoinNetwork), the only value RegisterRequest.Network accepts.
const NetworkSpark = "SPARK"

// Provider environments, derived from the platform's mode (the engine's
// sandbox setting): a link and its tokens belong to one environment.
const (
	EnvSandbox    = "SANDBOX"
	EnvProduction = "PRODUCTION"
)

// LinkStatus is the state of a provider-account link: ACTIVE links may be
// used; INVALID ones no longer verify with the provider; REVOKED ones were
// withdrawn.
type LinkStatus string

// Link states.
const (
	LinkActive  LinkStatus = "ACTIVE"
	LinkInvalid LinkStatus = "INVALID"
	LinkRevoked LinkStatus = "REVOKED"
)

// IssuanceStatus is the provider's issuance state of a token.
type IssuanceStatus string

// Issuance states (reference StablecoinIssuanceStatus).
const (
	IssuancePendingReview IssuanceStatus = "PENDING_REVIEW"
	IssuanceProvisioning  IssuanceStatus = "PROVISIONING"
	IssuanceProvisioned   IssuanceStatus = "PROVISIONED"
	IssuanceRejected      IssuanceStatus = "REJECTED"
	IssuanceFailed        IssuanceStatus = "FAILED"
)

// OpsStatus is whether a stablecoin is enabled for the Service's own
// operations (serviceOperationsStatus).
type OpsStatus string

// Enablement states.
const (
	OpsNotEnabled      OpsStatus = "NOT_ENABLED"
	OpsPendingApproval OpsStatus = "PENDING_APPROVAL"
	OpsEnabling        OpsStatus = "ENABLING"
	OpsEnabled         OpsStatus = "ENABLED"
	OpsDisabled        OpsStatus = "DISABLED"
)

// OpType is MINT or BURN: creating tokens against fiat received, or
// destroying them and paying their fiat value out.
type OpType string

// Operation types.
const (
	Mint OpType = "MINT"
	Burn OpType = "BURN"
)

// OpStatus is the lifecycle state of a mint or burn; CanMove says which
// moves are allowed and Terminal which states are final.
type OpStatus string

// Operation states (reference StablecoinOperationStatus).
const (
	OpCreated         OpStatus = "CREATED"
	OpPendingFunding  OpStatus = "PENDING_FUNDING"
	OpPendingProvider OpStatus = "PENDING_PROVIDER"
	OpProcessing      OpStatus = "PROCESSING"
	OpCompleted       OpStatus = "COMPLETED"
	OpFailed          OpStatus = "FAILED"
	OpExpired         OpStatus = "EXPIRED"
)

// Source and funding-source types. SourceServiceInternal is the
// reference's GRID_INTERNAL_ACCOUNT under the neutral name.
const (
	SourceWire            = "WIRE"
	SourceACHDebit        = "ACH_DEBIT"
	SourceSameDayACHDebit = "SAME_DAY_ACH_DEBIT"
	SourceExternalAccount = "EXTERNAL_ACCOUNT"
	SourceServiceInternal = "SERVICE_INTERNAL_ACCOUNT"
	SourceProviderBalance = "PROVIDER_INTERNAL_BALANCE"
)

// PayoutRails are the rails a burn's fiat value may be paid out on
// (BurnDestination.Rail); CheckExternal matches each to the bank rails of
// the payout account.
var PayoutRails = []string{"WIRE", "ACH_CREDIT", "SAME_DAY_ACH_CREDIT", "RTP_CREDIT"}

// ProviderAccount is a link to a provider account as the API shows it. The
// API client secret is write-only: it never appears here.
type ProviderAccount struct {
	ID                  string     `json:"id"`
	Provider            string     `json:"provider"`
	ProviderAccountID   string     `json:"providerAccountId"`
	ProviderEnvironment string     `json:"providerEnvironment"`
	Status              LinkStatus `json:"status"`
	LastVerifiedAt      *time.Time `json:"lastVerifiedAt,omitempty"`
	CreatedAt           time.Time  `json:"createdAt"`
	UpdatedAt           time.Time  `json:"updatedAt"`
}

// LinkRequest links provider API credentials (reference
// StablecoinProviderAccountLinkRequest).
type LinkRequest struct {
	Provider          string `json:"provider"`
	APIClientID       string `json:"apiClientId"`
	APIClientSecret   string `json:"apiClientSecret"`
	ProviderAccountID string `json:"providerAccountId,omitempty"`
}

// Stablecoin is a registered provider token (reference Stablecoin, with
// serviceOperationsStatus for gridOperationsStatus).
type Stablecoin struct {
	ID                          string         `json:"id"`
	Name                        string         `json:"name"`
	Symbol                      string         `json:"symbol"`
	BaseCurrency                string         `json:"baseCurrency"`
	Network                     string         `json:"network"`
	Decimals                    int            `json:"decimals"`
	IssuanceStatus              IssuanceStatus `json:"issuanceStatus"`
	ServiceOperationsStatus     OpsStatus      `json:"serviceOperationsStatus"`
	NetworkTokenIdentifier      string         `json:"networkTokenIdentifier"`
	Currency                    string         `json:"currency,omitempty"`
	Provider                    string         `json:"provider"`
	StablecoinProviderAccountID string         `json:"stablecoinProviderAccountId"`
	ProviderEnvironment         string         `json:"providerEnvironment"`
	ProviderTokenIdentifier     string         `json:"providerTokenIdentifier"`
	CreatedAt                   time.Time      `json:"createdAt"`
	UpdatedAt                   time.Time      `json:"updatedAt"`
}

// RegisterRequest registers an existing provider token (reference
// StablecoinRegisterRequest).
type RegisterRequest struct {
	ProviderTokenIdentifier     string `json:"providerTokenIdentifier"`
	NetworkTokenIdentifier      string `json:"networkTokenIdentifier"`
	Network                     string `json:"network"`
	StablecoinProviderAccountID string `json:"stablecoinProviderAccountId,omitempty"`
}

// Source is the source of an operation: a mint's funding source or a
// burn's source (reference StablecoinOperationSource, one merged shape).
type Source struct {
	Type                  string `json:"type"`
	ExternalAccountID     string `json:"externalAccountId,omitempty"`
	AccountID             string `json:"accountId,omitempty"`
	SourceTokenIdentifier string `json:"sourceTokenIdentifier,omitempty"`
	CryptoNetwork         string `json:"cryptoNetwork,omitempty"`
}

// Destination is where an operation's proceeds go: the minted tokens'
// account, or a burn's fiat payout account and rail.
type Destination struct {
	AccountID string `json:"accountId"`
	Rail      string `json:"rail,omitempty"`
}

// BurnDestination is a burn request's payout account (reference
// StablecoinBurnDestination).
type BurnDestination struct {
	Type              string `json:"type"`
	ExternalAccountID string `json:"externalAccountId"`
	Rail              string `json:"rail"`
}

// MintRequest mints Amount (digits, the token's smallest unit).
type MintRequest struct {
	Amount        string      `json:"amount"`
	FundingSource Source      `json:"fundingSource"`
	Destination   Destination `json:"destination"`
	Description   string      `json:"description,omitempty"`
}

// BurnRequest burns Amount and pays its fiat value out.
type BurnRequest struct {
	Amount      string          `json:"amount"`
	Source      Source          `json:"source"`
	Destination BurnDestination `json:"destination"`
	Description string          `json:"description,omitempty"`
}

// EstimatedDelivery is a static timing estimate of a burn's fiat payout.
type EstimatedDelivery struct {
	Rail     string `json:"rail"`
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	Timing   string `json:"timing"`
}

// Operation is a mint or burn (reference StablecoinOperation). Amount is
// in the token's smallest unit, as a string of digits; ExpiresAt is the
// end of the funding window while it is PENDING_FUNDING.
type Operation struct {
	ID                          string             `json:"id"`
	StablecoinID                string             `json:"stablecoinId"`
	OperationType               OpType             `json:"operationType"`
	Status                      OpStatus           `json:"status"`
	Amount                      string             `json:"amount"`
	Provider                    string             `json:"provider"`
	ProviderEnvironment         string             `json:"providerEnvironment"`
	StablecoinProviderAccountID string             `json:"stablecoinProviderAccountId"`
	Source                      *Source            `json:"source,omitempty"`
	FundingInstructions         map[string]any     `json:"fundingInstructions,omitempty"`
	Destination                 *Destination       `json:"destination,omitempty"`
	EstimatedDelivery           *EstimatedDelivery `json:"estimatedDelivery,omitempty"`
	ExpiresAt                   *time.Time         `json:"expiresAt,omitempty"`
	ProviderStatus              string             `json:"providerStatus,omitempty"`
	FailureReason               string             `json:"failureReason,omitempty"`
	Description                 string             `json:"description,omitempty"`
	CreatedAt                   time.Time          `json:"createdAt"`
	UpdatedAt                   time.Time          `json:"updatedAt"`
}
