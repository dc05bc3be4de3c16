package payments

// The vocabulary, ports and errors of the engine, under the names programs
// have always used: each name here is the very type, value or function of
// the package that owns it now (ARCHITECTURE.md, "The facade": the root
// is the facade; the areas own their vocabulary). TestAliases_GroupSignatures keeps every
// type an engine group's methods take or return reachable from here.

import (
	"context"
	"iter"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/agents"
	"github.com/paygrid/payments/cards"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/quotes"
	"github.com/paygrid/payments/rails"
	"github.com/paygrid/payments/stablecoins"
	"github.com/paygrid/payments/walletauth"
	"github.com/paygrid/payments/wallets"
)

// ------------------------------------------------------------------------
// The kernel: the store port, errors and codes, lists, events, the ledger and idempotency (internal/engine).

// Backlog is the work waiting in the engine, as Engine.Backlog counts it
// for operators' gauges (engine.Backlog).
type Backlog = engine.Backlog

// Claimer is the optional capability of a Store shared by several engine
// processes (storage/pgstore): leases on items of background work
// (engine.Claimer).
type Claimer = engine.Claimer

// Code is an error code of the API: the reference's enums and the more
// precise codes this API adds (CUSTOMER_NOT_FOUND rather than NOT_FOUND)
// (engine.Code).
type Code = engine.Code

// DeadLetter is a due item that kept failing and was set aside: its table,
// key and stored value, how often it was tried and the last reason
// (engine.DeadLetter).
type DeadLetter = engine.DeadLetter

// Delivery is what a webhook endpoint answered (engine.Delivery).
type Delivery = engine.Delivery

// DeliveryFilter narrows Webhooks.ListDeliveries and AllDeliveries:
// Resource is the id of the record the events describe (a transaction id
// lists that payment's events), Status a delivery state (DELIVERED or
// FAILED; AllDeliveries also takes PENDING), Type an event type
// (engine.DeliveryFilter).
type DeliveryFilter = engine.DeliveryFilter

// Error is the one error type the engine returns to callers (engine.Error).
type Error = engine.Error

// Event is one state change, delivered to the Notifier in the reference's
// webhook envelope: {id, type, timestamp, data}, where a delivered event's
// timestamp is the time that try was sent and its id is the same on every
// try (engine.Event).
type Event = engine.Event

// EventType is a webhook event's type, such as OUTGOING_PAYMENT.COMPLETED
// (reference WebhookType) (engine.EventType).
type EventType = engine.EventType

// FieldError is one invalid request field (the error body's details.errors entry)
// (engine.FieldError).
type FieldError = engine.FieldError

// Idempotency names one client request so that the engine carries it out at
// most once (engine.Idempotency).
type Idempotency = engine.Idempotency

// LedgerEntry is one balanced movement of money, written atomically with
// the business change it belongs to (engine.LedgerEntry).
type LedgerEntry = engine.LedgerEntry

// RetryableViewer is the optional capability of a Store that may run a
// read's function more than once, checking cached reads at the end
// (pgstore) (engine.RetryableViewer).
type RetryableViewer = engine.RetryableViewer

// LedgerBalance is one ledger account's balance in one currency, as
// Engine.Ledger.Accounts lists them (engine.LedgerBalance).
type LedgerBalance = engine.LedgerBalance

// LedgerTx is the optional capability of a Tx whose store keeps the
// ledger itself (pgstore): Post moves balances by deltas the store checks
// at commit (engine.LedgerTx).
type LedgerTx = engine.LedgerTx

// ListParams selects a page (engine.ListParams).
type ListParams = engine.ListParams

// Notifier delivers events after the transaction that wrote them committed
// (engine.Notifier).
type Notifier = engine.Notifier

// NotifierFunc adapts a function to Notifier (engine.NotifierFunc).
type NotifierFunc = engine.NotifierFunc

// Observer watches the engine's work (API requests, operations, store
// transactions, hand-overs, webhook deliveries, due items) for metrics and
// tracing; Config.Observer sets it (engine.Observer).
type Observer = engine.Observer

// Page is one page of a list, in the reference's envelope (engine.Page).
type Page[T any] = engine.Page[T]

// Posting is one leg of a ledger entry (see money.Posting)
// (engine.Posting).
type Posting = engine.Posting

// RecordKey names one record of a store: its table and key
// (engine.RecordKey).
type RecordKey = engine.RecordKey

// RetryPolicy is the outbox's delivery backoff: Initial, doubling per
// attempt up to Max, giving up after MaxAge (the event then moves to the
// dead-letter table, tableOutboxDead) (engine.RetryPolicy).
type RetryPolicy = engine.RetryPolicy

// ScanOptions narrows a Scan (engine.ScanOptions).
type ScanOptions = engine.ScanOptions

// Store is the engine's persistence port: named tables of byte records,
// ordered by key, changed only inside closure transactions (engine.Store).
type Store = engine.Store

// TestWebhookResult reports a test delivery (POST /sandbox/webhooks/test)
// (engine.TestWebhookResult).
type TestWebhookResult = engine.TestWebhookResult

// Tx is one transaction over the store's tables (engine.Tx).
type Tx = engine.Tx

// Work is one unit of the engine's work as an Observer sees it
// (engine.Work).
type Work = engine.Work

// WorkKind says what a unit of Work is (engine.WorkKind).
type WorkKind = engine.WorkKind

// WebhookDelivery is an event and where its delivery stands: Attempts
// counts the tries before the last one of a delivered event (so one that
// succeeded at once has 0) and every try of one pending or given up (Tries
// counts them all), NextAttemptAt is when a pending one is tried next,
// LastError why the last failed try failed, and FinishedAt when it was
// delivered or given up (engine.WebhookDelivery).
type WebhookDelivery = engine.WebhookDelivery

// UpdateReader is the optional capability of a Store on which operations
// read inside their Updates rather than in a View before them: pgstore
// (its commit checks an Update's reads) and memstore (its Views queue with
// the Updates) (engine.UpdateReader).
type UpdateReader = engine.UpdateReader

// EndpointOnly is the optional capability of a WebhookSender whose Notify
// drops every event: while no endpoint is configured, an engine without an
// event history writes no events (engine.EndpointOnly).
type EndpointOnly = engine.EndpointOnly

// WebhookSender is the optional capability of a Notifier that delivers to
// the platform's configured webhook endpoint (see package webhooks)
// (engine.WebhookSender).
type WebhookSender = engine.WebhookSender

// Webhooks reads and delivers the outbox of webhook events
// (engine.Webhooks).
type Webhooks = engine.Webhooks

// DefaultLimit is engine.DefaultLimit.
const DefaultLimit = engine.DefaultLimit

// DeliveryDelivered: accepted by the Notifier (or webhook endpoint)
// (engine.DeliveryDelivered).
const DeliveryDelivered = engine.DeliveryDelivered

// DeliveryFailed: given up: a dead-lettered event (engine.DeliveryFailed).
const DeliveryFailed = engine.DeliveryFailed

// DeliveryNotSent: never sent, because nothing would have received it
// (WebhookDelivery.Reason says why: ReasonNoEndpoint)
// (engine.DeliveryNotSent).
const DeliveryNotSent = engine.DeliveryNotSent

// ReasonNoEndpoint is the Reason of a NOT_SENT delivery: no webhook
// endpoint was configured (engine.ReasonNoEndpoint).
const ReasonNoEndpoint = engine.ReasonNoEndpoint

// DeliveryPending: in the outbox, to be tried (again) at NextAttemptAt
// (engine.DeliveryPending).
const DeliveryPending = engine.DeliveryPending

// MaxIdempotencyKeyLength is the longest accepted key
// (engine.MaxIdempotencyKeyLength).
const MaxIdempotencyKeyLength = engine.MaxIdempotencyKeyLength

// MaxLimit is engine.MaxLimit.
const MaxLimit = engine.MaxLimit

// OutcomeOK is the Outcome of an operation or request that succeeded
// (engine.OutcomeOK).
const OutcomeOK = engine.OutcomeOK

// The kinds of Work (engine.WorkRequest, ...): WorkKind documents what each
// Work holds.
const (
	WorkRequest     = engine.WorkRequest
	WorkOperation   = engine.WorkOperation
	WorkTransaction = engine.WorkTransaction
	WorkHandOver    = engine.WorkHandOver
	WorkDelivery    = engine.WorkDelivery
	WorkDue         = engine.WorkDue
)

// PlatformOwner is the owner key of what the platform owns itself rather
// than one of its customers (its internal and external accounts): the areas
// key records by owner (engine.PlatformOwner).
const PlatformOwner = engine.PlatformOwner

// Values of Code.
const (
	CodeAccountLocked                              = engine.CodeAccountLocked
	CodeAccountNotFound                            = engine.CodeAccountNotFound
	CodeAmountOutOfRange                           = engine.CodeAmountOutOfRange
	CodeAuthMethodNotFound                         = engine.CodeAuthMethodNotFound
	CodeBankAccountValidationPending               = engine.CodeBankAccountValidationPending
	CodeBeneficiaryTrusted                         = engine.CodeBeneficiaryTrusted
	CodeBodyTooLarge                               = engine.CodeBodyTooLarge
	CodeBulkUploadJobNotFound                      = engine.CodeBulkUploadJobNotFound
	CodeCardAlreadyClosed                          = engine.CodeCardAlreadyClosed
	CodeCardLimitReached                           = engine.CodeCardLimitReached
	CodeCardNotMutable                             = engine.CodeCardNotMutable
	CodeCardholderKycNotApproved                   = engine.CodeCardholderKycNotApproved
	CodeConflict                                   = engine.CodeConflict
	CodeCounterpartyNotAllowed                     = engine.CodeCounterpartyNotAllowed
	CodeCustomerDeleted                            = engine.CodeCustomerDeleted
	CodeCustomerNotFound                           = engine.CodeCustomerNotFound
	CodeDocumentAlreadyExists                      = engine.CodeDocumentAlreadyExists
	CodeDocumentHolderNotFound                     = engine.CodeDocumentHolderNotFound
	CodeDocumentRejectedDataMismatch               = engine.CodeDocumentRejectedDataMismatch
	CodeDocumentRejectedExpired                    = engine.CodeDocumentRejectedExpired
	CodeDocumentRejectedIncomplete                 = engine.CodeDocumentRejectedIncomplete
	CodeDocumentRejectedLowQuality                 = engine.CodeDocumentRejectedLowQuality
	CodeDocumentRejectedSuspectedFraud             = engine.CodeDocumentRejectedSuspectedFraud
	CodeDocumentRejectedUnsuitable                 = engine.CodeDocumentRejectedUnsuitable
	CodeDuplicateExternalAccount                   = engine.CodeDuplicateExternalAccount
	CodeEmailOtpCredentialAlreadyExists            = engine.CodeEmailOtpCredentialAlreadyExists
	CodeEndUserTermsNotAccepted                    = engine.CodeEndUserTermsNotAccepted
	CodeEndUserTermsVersionNotFound                = engine.CodeEndUserTermsVersionNotFound
	CodeExternalAccountVerificationReq             = engine.CodeExternalAccountVerificationReq
	CodeForbidden                                  = engine.CodeForbidden
	CodeFundingSourceIneligible                    = engine.CodeFundingSourceIneligible
	CodeInsufficientFunds                          = engine.CodeInsufficientFunds
	CodeInternalError                              = engine.CodeInternalError
	CodeInvalidAmount                              = engine.CodeInvalidAmount
	CodeInvalidBankAccount                         = engine.CodeInvalidBankAccount
	CodeInvalidCurrency                            = engine.CodeInvalidCurrency
	CodeInvalidInput                               = engine.CodeInvalidInput
	CodeInvalidReceiver                            = engine.CodeInvalidReceiver
	CodeInvalidRequestFormat                       = engine.CodeInvalidRequestFormat
	CodeInvalidSignature                           = engine.CodeInvalidSignature
	CodeInvalidStateTransition                     = engine.CodeInvalidStateTransition
	CodeInvalidTimestamp                           = engine.CodeInvalidTimestamp
	CodeInvalidUmaAddress                          = engine.CodeInvalidUmaAddress
	CodeInvitationAlreadyClaimed                   = engine.CodeInvitationAlreadyClaimed
	CodeInvitationCancelled                        = engine.CodeInvitationCancelled
	CodeInvitationNotFound                         = engine.CodeInvitationNotFound
	CodeInvitationsNotConfigured                   = engine.CodeInvitationsNotConfigured
	CodeLookupRequestFailed                        = engine.CodeLookupRequestFailed
	CodeLookupRequestNotFound                      = engine.CodeLookupRequestNotFound
	CodeMethodNotAllowed                           = engine.CodeMethodNotAllowed
	CodeMissingMandatoryUserInfo                   = engine.CodeMissingMandatoryUserInfo
	CodeMissingRequiredUmaParameters               = engine.CodeMissingRequiredUmaParameters
	CodeNotFound                                   = engine.CodeNotFound
	CodeNotImplemented                             = engine.CodeNotImplemented
	CodePasskeyAlreadyEnrolled                     = engine.CodePasskeyAlreadyEnrolled
	CodePasskeyCredentialAlreadyExists             = engine.CodePasskeyCredentialAlreadyExists
	CodePlatformNotFound                           = engine.CodePlatformNotFound
	CodeQuoteExpired                               = engine.CodeQuoteExpired
	CodeQuoteNotFound                              = engine.CodeQuoteNotFound
	CodeQuoteRateUnavailable                       = engine.CodeQuoteRateUnavailable
	CodeQuoteRequestFailed                         = engine.CodeQuoteRequestFailed
	CodeRateLimited                                = engine.CodeRateLimited
	CodeReferenceNotFound                          = engine.CodeReferenceNotFound
	CodeRequestIDMissing                           = engine.CodeRequestIDMissing
	CodeRequestNotFound                            = engine.CodeRequestNotFound
	CodeScaSessionRequired                         = engine.CodeScaSessionRequired
	CodeSelfPayment                                = engine.CodeSelfPayment
	CodeSenderNotAccepted                          = engine.CodeSenderNotAccepted
	CodeServiceSwitchError                         = engine.CodeServiceSwitchError
	CodeServiceUnavailable                         = engine.CodeServiceUnavailable
	CodeSessionNotFound                            = engine.CodeSessionNotFound
	CodeSmsOtpCredentialAlreadyExists              = engine.CodeSmsOtpCredentialAlreadyExists
	CodeStablecoinAmountNotRepresentable           = engine.CodeStablecoinAmountNotRepresentable
	CodeStablecoinBurnSourceNotSupported           = engine.CodeStablecoinBurnSourceNotSupported
	CodeStablecoinExternalAccountLinkFailed        = engine.CodeStablecoinExternalAccountLinkFailed
	CodeStablecoinExternalAccountLinkMethodReq     = engine.CodeStablecoinExternalAccountLinkMethodReq
	CodeStablecoinExternalAccountNotFound          = engine.CodeStablecoinExternalAccountNotFound
	CodeStablecoinExternalAccountNotLinked         = engine.CodeStablecoinExternalAccountNotLinked
	CodeStablecoinExternalAccountNotSupported      = engine.CodeStablecoinExternalAccountNotSupported
	CodeStablecoinExternalAccountProviderLinkFail  = engine.CodeStablecoinExternalAccountProviderLinkFail
	CodeStablecoinExternalAccountProviderLinkReq   = engine.CodeStablecoinExternalAccountProviderLinkReq
	CodeStablecoinNotFound                         = engine.CodeStablecoinNotFound
	CodeStablecoinNotProvisioned                   = engine.CodeStablecoinNotProvisioned
	CodeStablecoinOperationNotFound                = engine.CodeStablecoinOperationNotFound
	CodeStablecoinOperationNotSupported            = engine.CodeStablecoinOperationNotSupported
	CodeStablecoinProviderAccountInvalid           = engine.CodeStablecoinProviderAccountInvalid
	CodeStablecoinProviderAccountNotFound          = engine.CodeStablecoinProviderAccountNotFound
	CodeStablecoinProviderAccountRevoked           = engine.CodeStablecoinProviderAccountRevoked
	CodeStablecoinProviderAccountSelectionRequired = engine.CodeStablecoinProviderAccountSelectionRequired
	CodeStablecoinProviderError                    = engine.CodeStablecoinProviderError
	CodeStablecoinProviderSourceNotLinked          = engine.CodeStablecoinProviderSourceNotLinked
	CodeStablecoinServiceEnablementNotRequestable  = engine.CodeStablecoinServiceEnablementNotRequestable
	CodeStablecoinServiceOperationsNotEnabled      = engine.CodeStablecoinServiceOperationsNotEnabled
	CodeStablecoinSymbolAlreadyExists              = engine.CodeStablecoinSymbolAlreadyExists
	CodeStablecoinTokenIdentifierAlreadyExists     = engine.CodeStablecoinTokenIdentifierAlreadyExists
	CodeStablecoinVerificationFailed               = engine.CodeStablecoinVerificationFailed
	CodeTokenNotFound                              = engine.CodeTokenNotFound
	CodeTransactionNotCancellable                  = engine.CodeTransactionNotCancellable
	CodeTransactionNotFound                        = engine.CodeTransactionNotFound
	CodeTransactionNotPendingPlatformApproval      = engine.CodeTransactionNotPendingPlatformApproval
	CodeTransactionSizeLimitExceeded               = engine.CodeTransactionSizeLimitExceeded
	CodeUmaAddressExists                           = engine.CodeUmaAddressExists
	CodeUmaNotFound                                = engine.CodeUmaNotFound
	CodeUnauthorized                               = engine.CodeUnauthorized
	CodeUnsupportedMediaType                       = engine.CodeUnsupportedMediaType
	CodeUserNotFound                               = engine.CodeUserNotFound
	CodeUserNotReady                               = engine.CodeUserNotReady
	CodeVelocityLimitExceeded                      = engine.CodeVelocityLimitExceeded
	CodeVerificationNotFound                       = engine.CodeVerificationNotFound
	CodeWalletNotProvisioned                       = engine.CodeWalletNotProvisioned
	CodeWalletSignatureBodyMismatch                = engine.CodeWalletSignatureBodyMismatch
	CodeWalletSignatureInvalid                     = engine.CodeWalletSignatureInvalid
	CodeWalletSignatureMalformed                   = engine.CodeWalletSignatureMalformed
	CodeWalletSignatureMissing                     = engine.CodeWalletSignatureMissing
	CodeWebhookDeliveryError                       = engine.CodeWebhookDeliveryError
	CodeWebhookEndpointNotSet                      = engine.CodeWebhookEndpointNotSet
)

// EventTest is the type of the test event sent to a newly configured
// webhook endpoint and by the sandbox's test-webhook operation; its data is
// {} (engine.EventTest).
const EventTest = engine.EventTest

// All walks a whole list: an iterator over every item of the pages list
// returns, from the page p selects onward, following NextCursor while
// HasMore; a failed page ends the walk with one (zero T, error) pair, and
// breaking out of the loop reads no further page. Every list method M of
// an engine group has its walk MAll beside it (Customers.ListAll)
// (engine.All).
func All[T any](ctx context.Context, p ListParams, list func(context.Context, ListParams) (Page[T], error)) iter.Seq2[T, error] {
	return engine.All(ctx, p, list)
}

// Balance returns the balance of a ledger account in currency (0 when it
// never moved) (engine.Balance).
func Balance(tx Tx, account string, currency string) (int64, error) {
	return engine.Balance(tx, account, currency)
}

// CheckLedger verifies the ledger invariants over the whole store:
// replaying the journal reproduces every stored balance, every currency
// sums to zero over all ledger accounts, and no non-external account is
// negative unless an Overdraft entry took it there (engine.CheckLedger).
func CheckLedger(ctx context.Context, s Store) error { return engine.CheckLedger(ctx, s) }

// CodeOf returns the code of err: the Code of an *Error in its chain,
// NOT_FOUND for ErrNotFound, CONFLICT for ErrConflict, INTERNAL_ERROR for
// anything else, and "" for nil (engine.CodeOf).
func CodeOf(err error) Code { return engine.CodeOf(err) }

// Codes returns every code the engine can return (engine.Codes).
func Codes() []Code { return engine.Codes() }

// ContendedKeys returns the records WithContended named in ctx
// (engine.ContendedKeys).
func ContendedKeys(ctx context.Context) []RecordKey { return engine.ContendedKeys(ctx) }

// ErrClosed: ErrClosed: the store or engine was closed (engine.ErrClosed).
var ErrClosed = engine.ErrClosed

// ErrConflict: ErrConflict: a record with that key already exists, or a
// concurrent change won (engine.ErrConflict).
var ErrConflict = engine.ErrConflict

// ErrNotFound: ErrNotFound: the record does not exist (engine.ErrNotFound).
var ErrNotFound = engine.ErrNotFound

// ErrPermanent marks a Notifier error that must not be retried
// (engine.ErrPermanent).
var ErrPermanent = engine.ErrPermanent

// ErrReadOnly: ErrReadOnly: a write was attempted inside View
// (engine.ErrReadOnly).
var ErrReadOnly = engine.ErrReadOnly

// TraceParentFrom returns the W3C traceparent a Notifier sends with the
// event it is given ctx for, "" when the event was emitted under no trace
// (engine.TraceParentFrom).
func TraceParentFrom(ctx context.Context) string { return engine.TraceParentFrom(ctx) }

// WithTraceParent returns ctx carrying traceparent for TraceParentFrom
// (engine.WithTraceParent).
func WithTraceParent(ctx context.Context, traceparent string) context.Context {
	return engine.WithTraceParent(ctx, traceparent)
}

// Observers returns an Observer that passes everything to each of obs in
// turn (a metrics and a tracing adapter together), nil for none
// (engine.Observers).
func Observers(obs ...Observer) Observer { return engine.Observers(obs...) }

// Errorf builds an *Error with a formatted message (engine.Errorf).
func Errorf(code Code, format string, args ...any) *Error {
	return engine.Errorf(code, format, args...)
}

// Invalid wraps field errors from a validator into an INVALID_INPUT error
// (engine.Invalid).
func Invalid(err error) error { return engine.Invalid(err) }

// InvalidAs is Invalid with another 400 code (such as INVALID_BANK_ACCOUNT)
// (engine.InvalidAs).
func InvalidAs(code Code, err error) error { return engine.InvalidAs(code, err) }

// MessageOf returns the client-safe message of err (engine.MessageOf).
func MessageOf(err error) string { return engine.MessageOf(err) }

// Post applies a balanced entry inside tx: it checks the postings with
// money.CheckBalanced, updates each balance, and refuses (writing nothing
// the caller keeps, since the caller's transaction then fails) any posting
// that would take a non-external account below zero, with
// INSUFFICIENT_FUNDS, unless the entry is an Overdraft (engine.Post).
func Post(tx Tx, entry LedgerEntry) error { return engine.Post(tx, entry) }

// PrefixEnd returns the smallest key greater than every key that starts
// with prefix, or "" when there is none (a prefix of 0xff bytes)
// (engine.PrefixEnd).
func PrefixEnd(prefix string) string { return engine.PrefixEnd(prefix) }

// WithContended returns ctx carrying a hint for the store: the operation
// run with it will read and rewrite these records, which concurrent
// operations may rewrite too (the balance a payment draws on)
// (engine.WithContended).
func WithContended(ctx context.Context, keys ...RecordKey) context.Context {
	return engine.WithContended(ctx, keys...)
}

// ------------------------------------------------------------------------
// The rail contract and the external accounts rails receive (package rails).

// AccountCheck is what a rail learned about a new external account
// (rails.AccountCheck).
type AccountCheck = rails.AccountCheck

// BeneficiaryVerifiedData is the holder's name as the rail returned it
// (rails.BeneficiaryVerifiedData).
type BeneficiaryVerifiedData = rails.BeneficiaryVerifiedData

// ExternalAccount is a bank account or wallet outside the platform, owned
// by a customer or (CustomerID empty) by the platform
// (rails.ExternalAccount).
type ExternalAccount = rails.ExternalAccount

// ExternalAccountStatus is the status of an external account
// (rails.ExternalAccountStatus).
type ExternalAccountStatus = rails.ExternalAccountStatus

// OutgoingPayment is what a Rail is asked to deliver: Amount of Currency to
// an external account or a UMA address (rails.OutgoingPayment).
type OutgoingPayment = rails.OutgoingPayment

// PullRequest is what a Puller is asked to collect: Amount of Currency from
// an external account (rails.PullRequest).
type PullRequest = rails.PullRequest

// Puller is the optional capability of a Rail that pulls money from
// external accounts (ACH debits), used by transfer-in and by quotes funded
// by a direct pull (rails.Puller).
type Puller = rails.Puller

// InstantRail is the optional capability of a simulated Rail that decides
// a payout's outcomes from the payment alone, applied in the transaction
// that makes the payment (rails.Instant).
type InstantRail = rails.Instant

// Rail moves money between the platform and the world outside it: it checks
// new external accounts the way the payment networks would, and delivers
// outgoing payments (rails.Rail).
type Rail = rails.Rail

// RailOutcome is what a rail reports about a payment (rails.Outcome).
type RailOutcome = rails.Outcome

// RailReport is one outcome of a payment, as a rail reports it
// (rails.Report).
type RailReport = rails.Report

// Reporter is the entry point through which a rail reports what became of a
// payment it was given (rails.Reporter).
type Reporter = rails.Reporter

// Values of ExternalAccountStatus.
const (
	ExternalActive                       = rails.ExternalActive
	ExternalInactive                     = rails.ExternalInactive
	ExternalPending                      = rails.ExternalPending
	ExternalPendingOwnershipVerification = rails.ExternalPendingOwnershipVerification
	ExternalUnderReview                  = rails.ExternalUnderReview
	ExternalUnverified                   = rails.ExternalUnverified
)

// Values of RailOutcome.
const (
	RailAccepted  = rails.Accepted
	RailCompleted = rails.Completed
	RailFailed    = rails.Failed
	RailReturned  = rails.Returned
)

// ------------------------------------------------------------------------
// The platform's configuration, API tokens and permissions (package platform).

// CardTokenization2FAConfig brands card-tokenization authentication
// messages (platform.CardTokenization2FAConfig).
type CardTokenization2FAConfig = platform.CardTokenization2FAConfig

// CounterpartyField names customer information the platform wants about
// counterparties (platform.CounterpartyField).
type CounterpartyField = platform.CounterpartyField

// CreateTokenRequest names a token and its permissions
// (platform.CreateTokenRequest).
type CreateTokenRequest = platform.CreateTokenRequest

// CreatedToken is a new token with its one-time secret
// (platform.CreatedToken).
type CreatedToken = platform.CreatedToken

// CurrencyConfig is one supported currency with its per-transaction bounds
// (maxAmount is the single-transaction maximum behind
// TRANSACTION_SIZE_LIMIT_EXCEEDED) (platform.CurrencyConfig).
type CurrencyConfig = platform.CurrencyConfig

// EmbeddedWalletConfig brands embedded-wallet OTP messages
// (platform.EmbeddedWalletConfig).
type EmbeddedWalletConfig = platform.EmbeddedWalletConfig

// FeeConfig is a platform fee on transactions from SourceCurrency
// (platform.FeeConfig).
type FeeConfig = platform.FeeConfig

// FixedFee is an amount in minor units of Currency (platform.FixedFee).
type FixedFee = platform.FixedFee

// Permission is what an API token may do (platform.Permission).
type Permission = platform.Permission

// Platform holds the platform's configuration and its API tokens
// (platform.Service).
type Platform = platform.Service

// PlatformConfig is the platform's configuration (the reference's
// PlatformConfig plus skipVerificationPaperwork, which steers sandbox KYC)
// (platform.Config).
type PlatformConfig = platform.Config

// PlatformConfigUpdate is a PATCH of the platform configuration: nil
// members are left unchanged; EmbeddedWalletConfig and
// CardTokenization2faConfig are merged member by member (JSON merge patch);
// FeeConfigs are merged by (feeType, sourceCurrency), and both amounts 0
// removes a fee config (platform.ConfigUpdate).
type PlatformConfigUpdate = platform.ConfigUpdate

// PlatformSeed is the configuration a new platform starts with
// (platform.Seed).
type PlatformSeed = platform.Seed

// Token is an API token as the API shows it (platform.Token).
type Token = platform.Token

// TokenFilter narrows Platform.ListTokens; zero members match everything
// (platform.TokenFilter).
type TokenFilter = platform.TokenFilter

// Values of Permission.
const (
	PermManage   = platform.PermManage
	PermTransact = platform.PermTransact
	PermView     = platform.PermView
)

// CustomerInfoFields are the reference's CustomerInfoFieldName values
// (platform.CustomerInfoFields).
var CustomerInfoFields = platform.CustomerInfoFields

// DefaultCurrencies are the currencies of a platform seeded without a list
// (platform.DefaultCurrencies).
var DefaultCurrencies = platform.DefaultCurrencies

// InRange reports whether ts lies within the inclusive bounds; zero bounds
// are open (platform.InRange).
func InRange(ts time.Time, after time.Time, before time.Time) bool {
	return platform.InRange(ts, after, before)
}

// ------------------------------------------------------------------------
// Customers, their verification, documents, contact codes, terms and SCA (package customers).

// Address is a postal address (reference Address) (customers.Address).
type Address = customers.Address

// AgreementConsent records the acceptance of one agreement (the shape of
// the reference's EndUserTermsConsentRequest plus its type)
// (customers.AgreementConsent).
type AgreementConsent = customers.AgreementConsent

// BeneficialOwner is a person who owns or controls a business customer
// (customers.BeneficialOwner).
type BeneficialOwner = customers.BeneficialOwner

// BulkJob is a customer CSV import and its outcome (reference
// BulkCustomerImportJob) (customers.BulkJob).
type BulkJob = customers.BulkJob

// BulkProgress counts rows (customers.BulkProgress).
type BulkProgress = customers.BulkProgress

// BulkRowError is the failure of one row; CorrelationID names the row by
// its platformCustomerId, or "row N" (1-based, after the header)
// (customers.BulkRowError).
type BulkRowError = customers.BulkRowError

// BusinessInfo describes a business customer (reference BusinessInfo)
// (customers.BusinessInfo).
type BusinessInfo = customers.BusinessInfo

// CodeMessage is one one-time code to deliver (customers.CodeMessage).
type CodeMessage = customers.CodeMessage

// CodeSender delivers one-time codes by email or SMS
// (customers.CodeSender).
type CodeSender = customers.CodeSender

// ContactVerification is the state of a customer's email and phone checks;
// present only when the customer's provider requires them
// (customers.ContactVerification).
type ContactVerification = customers.ContactVerification

// Customer is a platform's customer, an individual or a business, as the
// API shows it (customers.Customer).
type Customer = customers.Customer

// CustomerFilter narrows Customers.List; zero members match everything
// (customers.CustomerFilter).
type CustomerFilter = customers.CustomerFilter

// CustomerInput is the body of customer create and update
// (customers.CustomerInput).
type CustomerInput = customers.CustomerInput

// CustomerProblem is one reason a verification packet is incomplete: a
// VerificationError of the reference without its resourceId, which the
// engine fills in (customers.Problem).
type CustomerProblem = customers.Problem

// CustomerProfile is the patchable identity and due-diligence data of a
// customer (customers.Profile).
type CustomerProfile = customers.Profile

// CustomerType is INDIVIDUAL or BUSINESS (customers.CustomerType).
type CustomerType = customers.CustomerType

// Customers onboards customers and verifies them: records, KYC/KYB
// verifications and links, beneficial owners, contact verification, bulk
// import and the end-user terms (customers.Service).
type Customers = customers.Service

// Document is an uploaded verification document (its file is kept apart)
// (customers.Document).
type Document = customers.Document

// DocumentUpload is an upload (POST) or replacement (PUT; DocumentHolder is
// then ignored) (customers.DocumentUpload).
type DocumentUpload = customers.DocumentUpload

// Documents stores verification documents for customers and beneficial
// owners (customers.Documents).
type Documents = customers.Documents

// EndUserTerms is a version of the provider's end-user terms
// (customers.EndUserTerms).
type EndUserTerms = customers.EndUserTerms

// KYCDecision is a provider's answer to a submission
// (customers.KYCDecision).
type KYCDecision = customers.KYCDecision

// KYCLink is a hosted verification link (reference KycLinkResponse)
// (customers.KYCLink).
type KYCLink = customers.KYCLink

// KYCProvider verifies customers (customers.KYCProvider).
type KYCProvider = customers.KYCProvider

// KYCStatus is the verification status of a customer (kycStatus for
// individuals, kybStatus for businesses; the same enum)
// (customers.KYCStatus).
type KYCStatus = customers.KYCStatus

// KYCSubmission is what a provider reviews: the customer, the platform, the
// problems the engine found in the packet (empty when complete), whether an
// earlier submission came back RESOLVE_ERRORS, and a business's owners
// (customers.KYCSubmission).
type KYCSubmission = customers.KYCSubmission

// Mobile is the new number of an SMS_OTP reset (reference
// TwoFactorResetCompleteRequest.mobile) (customers.Mobile).
type Mobile = customers.Mobile

// OwnerInput creates or (members left zero keep their values) updates a
// beneficial owner (customers.OwnerInput).
type OwnerInput = customers.OwnerInput

// OwnerPersonalInfo identifies a beneficial owner (reference
// BeneficialOwnerPersonalInfo) (customers.OwnerPersonalInfo).
type OwnerPersonalInfo = customers.OwnerPersonalInfo

// ScaAuthorization is the proof of an SCA challenge (reference
// ScaAuthorization): a code (SMS_OTP, TOTP) or a passkey assertion with the
// origin it was made for (customers.ScaAuthorization).
type ScaAuthorization = customers.ScaAuthorization

// ScaEnrollment is the material that finishes an enrollment (reference
// ScaFactorEnrollStartOneOf): a TOTP secret, or passkey registration
// options (customers.ScaEnrollment).
type ScaEnrollment = customers.ScaEnrollment

// ScaFactorConfirm finishes an enrollment (reference
// ScaFactorConfirmRequestOneOf): the TOTP secret and first code, or the
// passkey credential and the origin it was made for
// (customers.ScaFactorConfirm).
type ScaFactorConfirm = customers.ScaFactorConfirm

// ScaFactorConfirmed is an enrollment's result (reference
// ScaFactorConfirmResponseOneOf): TOTP recovery codes, shown once, or the
// enrolled passkey (customers.ScaFactorConfirmed).
type ScaFactorConfirmed = customers.ScaFactorConfirmed

// ScaFactorList lists a customer's factors (reference ScaFactorList)
// (customers.ScaFactorList).
type ScaFactorList = customers.ScaFactorList

// ScaFactorView is an enrolled factor (reference ScaFactorView)
// (customers.ScaFactorView).
type ScaFactorView = customers.ScaFactorView

// ScaLoginComplete finishes a login (reference ScaLoginCompleteRequest)
// (customers.ScaLoginComplete).
type ScaLoginComplete = customers.ScaLoginComplete

// ScaLoginStart is the material of a started login (reference
// ScaLoginStart) (customers.ScaLoginStart).
type ScaLoginStart = customers.ScaLoginStart

// ScaSession is a completed login (reference ScaLoginComplete)
// (customers.ScaSession).
type ScaSession = customers.ScaSession

// SecurityState is the login-security state after a recorded event
// (reference RecordSecurityEventResponse) (customers.SecurityState).
type SecurityState = customers.SecurityState

// TwoFactorResetStart answers a started 2FA reset (reference
// TwoFactorResetStart) (customers.TwoFactorResetStart).
type TwoFactorResetStart = customers.TwoFactorResetStart

// TwoFactorResetStatus is a reset's progress (reference
// TwoFactorResetStatus) (customers.TwoFactorResetStatus).
type TwoFactorResetStatus = customers.TwoFactorResetStatus

// Verification is one KYC/KYB submission and its outcome
// (customers.Verification).
type Verification = customers.Verification

// VerificationError is one problem of a submission, on the customer or one
// of its beneficial owners (ResourceID) (customers.VerificationError).
type VerificationError = customers.VerificationError

// VerificationStatus is the outcome of a verification submission
// (customers.VerificationStatus).
type VerificationStatus = customers.VerificationStatus

// AgreementProviderEndUserTerms is the agreement type an unregulated
// platform's customers must accept before customer-scoped money movement
// (customers.AgreementProviderEndUserTerms).
const AgreementProviderEndUserTerms = customers.AgreementProviderEndUserTerms

// ChannelEmail is customers.ChannelEmail.
const ChannelEmail = customers.ChannelEmail

// ChannelPhone is customers.ChannelPhone.
const ChannelPhone = customers.ChannelPhone

// ContactCodeAttempts is customers.ContactCodeAttempts.
const ContactCodeAttempts = customers.ContactCodeAttempts

// ContactPending is customers.ContactPending.
const ContactPending = customers.ContactPending

// ContactVerified is customers.ContactVerified.
const ContactVerified = customers.ContactVerified

// EventFailedLoginAttempt is customers.EventFailedLoginAttempt.
const EventFailedLoginAttempt = customers.EventFailedLoginAttempt

// EventResetPasswordCompleted is customers.EventResetPasswordCompleted.
const EventResetPasswordCompleted = customers.EventResetPasswordCompleted

// GlobalAccountCurrency is the currency of the Global Account: a customer
// whose currencies include it holds it in an EMBEDDED_WALLET internal
// account instead of an INTERNAL_CRYPTO one
// (customers.GlobalAccountCurrency).
const GlobalAccountCurrency = customers.GlobalAccountCurrency

// MaxDocumentBytes caps one uploaded file (413 PAYLOAD_TOO_LARGE above it)
// (customers.MaxDocumentBytes).
const MaxDocumentBytes = customers.MaxDocumentBytes

// ScaMaxSends is customers.ScaMaxSends.
const ScaMaxSends = customers.ScaMaxSends

// Values of CustomerType.
const (
	CustomerBusiness   = customers.CustomerBusiness
	CustomerIndividual = customers.CustomerIndividual
)

// Values of Duration.
const (
	ContactCodeTTL    = customers.ContactCodeTTL
	ScaEnrollTTL      = customers.ScaEnrollTTL
	ScaLoginTTL       = customers.ScaLoginTTL
	ScaResendInterval = customers.ScaResendInterval
	ScaSessionTTL     = customers.ScaSessionTTL
)

// Values of EventType: the webhook events of package customers. A
// CUSTOMER.* event's data is the Customer (CustomerOf), a VERIFICATION.*
// event's the Verification (VerificationOf), a BULK_UPLOAD.* event's the
// BulkJob (BulkJobOf).
const (
	EventBulkUploadCompleted              = customers.EventBulkUploadCompleted
	EventBulkUploadFailed                 = customers.EventBulkUploadFailed
	EventCustomerKYBApproved              = customers.EventCustomerKYBApproved
	EventCustomerKYBPending               = customers.EventCustomerKYBPending
	EventCustomerKYBRejected              = customers.EventCustomerKYBRejected
	EventCustomerKYCApproved              = customers.EventCustomerKYCApproved
	EventCustomerKYCPending               = customers.EventCustomerKYCPending
	EventCustomerKYCRejected              = customers.EventCustomerKYCRejected
	EventVerificationApproved             = customers.EventVerificationApproved
	EventVerificationInProgress           = customers.EventVerificationInProgress
	EventVerificationPendingManualReview  = customers.EventVerificationPendingManualReview
	EventVerificationReadyForVerification = customers.EventVerificationReadyForVerification
	EventVerificationRejected             = customers.EventVerificationRejected
	EventVerificationResolveErrors        = customers.EventVerificationResolveErrors
)

// Values of Status.
const (
	KYCApproved   = customers.KYCApproved
	KYCHold       = customers.KYCHold
	KYCPending    = customers.KYCPending
	KYCRejected   = customers.KYCRejected
	KYCUnverified = customers.KYCUnverified
)

// Values of VerificationStatus.
const (
	VerificationApproved             = customers.VerificationApproved
	VerificationInProgress           = customers.VerificationInProgress
	VerificationPendingManualReview  = customers.VerificationPendingManualReview
	VerificationReadyForVerification = customers.VerificationReadyForVerification
	VerificationRejected             = customers.VerificationRejected
	VerificationResolveErrors        = customers.VerificationResolveErrors
)

// CurrentEndUserTerms is customers.CurrentEndUserTerms.
var CurrentEndUserTerms = customers.CurrentEndUserTerms

// EndUserTermsVersions is customers.EndUserTermsVersions.
var EndUserTermsVersions = customers.EndUserTermsVersions

// OwnerRoles are the reference's BeneficialOwnerRole values
// (customers.OwnerRoles).
var OwnerRoles = customers.OwnerRoles

// BulkJobOf decodes the job a BULK_UPLOAD.* event carries; another event
// is INVALID_INPUT (customers.BulkJobOf).
func BulkJobOf(ev Event) (*BulkJob, error) { return customers.BulkJobOf(ev) }

// CustomerOf decodes the customer a CUSTOMER.KYC_* or CUSTOMER.KYB_* event
// carries; another event is INVALID_INPUT (customers.CustomerOf).
func CustomerOf(ev Event) (*Customer, error) { return customers.CustomerOf(ev) }

// VerificationOf decodes the verification a VERIFICATION.* event carries;
// another event is INVALID_INPUT (customers.VerificationOf).
func VerificationOf(ev Event) (*Verification, error) { return customers.VerificationOf(ev) }

// ------------------------------------------------------------------------
// Internal and external accounts, trust and ownership proofs (package accounts).

// AccountDetails is a typed accountInfo: USBankAccount, IBANAccount,
// UKBankAccount, CLABEAccount, PIXAccount, UPIAccount, CryptoWallet and
// LightningAccount; AccountInfo writes the reference's accountInfo JSON
// for ExternalAccountInput.AccountInfo (accounts.AccountDetails).
type AccountDetails = accounts.AccountDetails

// AccountType is an internal account's type (reference InternalAccountType)
// (accounts.AccountType).
type AccountType = accounts.AccountType

// Accounts serves internal accounts (balances the platform holds) and
// external accounts (where money goes and comes from), with beneficiary
// trust and ownership proofs (accounts.Service).
type Accounts = accounts.Service

// Beneficiary is who holds a bank account or a wallet: an INDIVIDUAL
// needs FullName, a BUSINESS LegalName (accounts.Beneficiary).
type Beneficiary = accounts.Beneficiary

// BeneficiaryType says whether a beneficiary is a person or a business
// (accounts.BeneficiaryType).
type BeneficiaryType = accounts.BeneficiaryType

// CLABEAccount is a Mexican bank account named by its 18-digit CLABE
// (MXN_ACCOUNT), paid by SPEI (accounts.CLABEAccount).
type CLABEAccount = accounts.CLABEAccount

// CryptoWallet is a wallet on a chain (Type: SOLANA_WALLET,
// ETHEREUM_WALLET, ...), self-custody or held at a VASP
// (accounts.CryptoWallet).
type CryptoWallet = accounts.CryptoWallet

// CurrencyAmount is an amount with its currency (reference CurrencyAmount)
// (accounts.CurrencyAmount).
type CurrencyAmount = accounts.CurrencyAmount

// CurrencyInfo describes a currency (reference Currency)
// (accounts.CurrencyInfo).
type CurrencyInfo = accounts.CurrencyInfo

// ExternalAccountFilter narrows Accounts.ListExternal
// (accounts.ExternalAccountFilter).
type ExternalAccountFilter = accounts.ExternalAccountFilter

// ExternalAccountInput creates an external account
// (accounts.ExternalAccountInput).
type ExternalAccountInput = accounts.ExternalAccountInput

// IBANAccount is a bank account named by its IBAN; Currency (default EUR)
// picks the accountType among EUR, DKK, AED, ILS and TRY
// (accounts.IBANAccount).
type IBANAccount = accounts.IBANAccount

// InternalAccount is an account held on the platform's ledger
// (accounts.InternalAccount).
type InternalAccount = accounts.InternalAccount

// InternalAccountFilter narrows Accounts.ListInternal
// (accounts.InternalAccountFilter).
type InternalAccountFilter = accounts.InternalAccountFilter

// InternalAccountView is an internal account as the API shows it: its
// available balance (balance), available plus held (totalBalance), and how
// to fund it (accounts.InternalAccountView).
type InternalAccountView = accounts.InternalAccountView

// LightningAccount is a Lightning destination (LIGHTNING): a BOLT11
// invoice, a BOLT12 offer or a lightning address
// (accounts.LightningAccount).
type LightningAccount = accounts.LightningAccount

// OwnershipChallenge asks the holder of a self-custody wallet to prove it:
// sign MessageToSign (WALLET_SIGNATURE) before ExpiresAt, or complete a
// liveness check at VerificationLink (LIVENESS)
// (accounts.OwnershipChallenge).
type OwnershipChallenge = accounts.OwnershipChallenge

// PIXAccount is a Brazilian account named by its PIX key (BRL_ACCOUNT)
// (accounts.PIXAccount).
type PIXAccount = accounts.PIXAccount

// PaymentInstructions tell a payer how to fund an account or a quote
// (accounts.PaymentInstructions).
type PaymentInstructions = accounts.PaymentInstructions

// PixKeyType is what a PIX key is (accounts.PixKeyType).
type PixKeyType = accounts.PixKeyType

// SandboxAccounts is the accounts area's part of the sandbox operations
// (Engine.Sandbox): funding internal accounts (accounts.Sandbox).
type SandboxAccounts = accounts.Sandbox

// ScaChallenge is a Strong Customer Authentication challenge to satisfy
// (accounts.ScaChallenge).
type ScaChallenge = accounts.ScaChallenge

// Scope says whose accounts an account operation addresses: the customers'
// (the /customers and /internal-accounts routes) or the platform's own (the
// /platform routes) (accounts.Scope).
type Scope = accounts.Scope

// TrustResult answers a confirmed trust or untrust (accounts.TrustResult).
type TrustResult = accounts.TrustResult

// TrustStart answers a trust or untrust request (accounts.TrustStart).
type TrustStart = accounts.TrustStart

// UKBankAccount is a UK bank account (GBP_ACCOUNT), paid by Faster
// Payments (accounts.UKBankAccount).
type UKBankAccount = accounts.UKBankAccount

// UPIAccount is an Indian account named by its UPI virtual payment
// address (INR_ACCOUNT) (accounts.UPIAccount).
type UPIAccount = accounts.UPIAccount

// USBankAccount is a US bank account (USD_ACCOUNT), paid by ACH, wire, RTP
// or FedNow (accounts.USBankAccount).
type USBankAccount = accounts.USBankAccount

// WalletType is the accountType of a crypto wallet: the chain its
// address is on (accounts.WalletType).
type WalletType = accounts.WalletType

// MaxSandboxFunding caps one sandbox funding
// (accounts.MaxSandboxFunding).
const MaxSandboxFunding = accounts.MaxSandboxFunding

// MethodLiveness is accounts.MethodLiveness.
const MethodLiveness = accounts.MethodLiveness

// MethodWalletSignature is accounts.MethodWalletSignature.
const MethodWalletSignature = accounts.MethodWalletSignature

// OwnershipThreshold is the largest amount (in minor units) that may be
// sent to a wallet still PENDING_OWNERSHIP_VERIFICATION (a transfer under
// the regulatory threshold): the equivalent of 1,000 major units
// (accounts.OwnershipThreshold).
const OwnershipThreshold = accounts.OwnershipThreshold

// SandboxFundingAccount is the ledger account sandbox funding draws from
// (accounts.SandboxFundingAccount).
const SandboxFundingAccount = accounts.SandboxFundingAccount

// Values of AccountType.
const (
	EmbeddedWallet = accounts.EmbeddedWallet
	InternalCrypto = accounts.InternalCrypto
	InternalFiat   = accounts.InternalFiat
)

// Values of BeneficiaryType.
const (
	BeneficiaryBusiness   = accounts.BeneficiaryBusiness
	BeneficiaryIndividual = accounts.BeneficiaryIndividual
)

// Values of Duration.
const (
	LivenessDelay         = accounts.LivenessDelay
	SignatureChallengeTTL = accounts.SignatureChallengeTTL
)

// Values of EventType: the webhook events of package accounts.
// INTERNAL_ACCOUNT.BALANCE_UPDATED's data is the InternalAccountView
// (InternalAccountOf), EXTERNAL_ACCOUNT.STATUS_UPDATED's the
// ExternalAccount (ExternalAccountOf).
const (
	EventExternalAccountStatusUpdated  = accounts.EventExternalAccountStatusUpdated
	EventInternalAccountBalanceUpdated = accounts.EventInternalAccountBalanceUpdated
)

// Values of PixKeyType.
const (
	PixKeyCNPJ   = accounts.PixKeyCNPJ
	PixKeyCPF    = accounts.PixKeyCPF
	PixKeyEmail  = accounts.PixKeyEmail
	PixKeyPhone  = accounts.PixKeyPhone
	PixKeyRandom = accounts.PixKeyRandom
)

// Values of Scope.
const (
	CustomerScope = accounts.CustomerScope
	PlatformScope = accounts.PlatformScope
)

// Values of WalletType.
const (
	ArbitrumWallet = accounts.ArbitrumWallet
	BaseWallet     = accounts.BaseWallet
	EthereumWallet = accounts.EthereumWallet
	PlasmaWallet   = accounts.PlasmaWallet
	PolygonWallet  = accounts.PolygonWallet
	SolanaWallet   = accounts.SolanaWallet
	SparkWallet    = accounts.SparkWallet
	TronWallet     = accounts.TronWallet
)

// ExternalAccountOf decodes the external account an
// EXTERNAL_ACCOUNT.STATUS_UPDATED event carries; another event is
// INVALID_INPUT (accounts.ExternalAccountOf).
func ExternalAccountOf(ev Event) (*ExternalAccount, error) { return accounts.ExternalAccountOf(ev) }

// InternalAccountOf decodes the internal account an
// INTERNAL_ACCOUNT.BALANCE_UPDATED event carries; another event is
// INVALID_INPUT (accounts.InternalAccountOf).
func InternalAccountOf(ev Event) (*InternalAccountView, error) { return accounts.InternalAccountOf(ev) }

// ------------------------------------------------------------------------
// Quotes, transactions, transfers, rates, lookups and invitations (package quotes).

// CardMerchant is the merchant of a card transaction (reference
// CardMerchant) (quotes.CardMerchant).
type CardMerchant = quotes.CardMerchant

// CardPullSummary counts the pulls from the funding source (reference
// CardPullSummary) (quotes.CardPullSummary).
type CardPullSummary = quotes.CardPullSummary

// CardSummary counts refunds or settlements (reference CardRefundSummary,
// CardSettlementSummary) (quotes.CardSummary).
type CardSummary = quotes.CardSummary

// CardTransaction is a card authorization and everything that reconciles
// against it (reference CardTransaction) (quotes.CardTransaction).
type CardTransaction = quotes.CardTransaction

// CardTransactionStatus is a card transaction's status (reference
// CardTransactionStatus): card transactions are listed and read with the
// other transactions (quotes.CardTxStatus).
type CardTransactionStatus = quotes.CardTxStatus

// Crypto is the crypto-withdrawal area (quotes.Crypto).
type Crypto = quotes.Crypto

// Decision is the platform's answer to an incoming payment waiting for it
// (quotes.Decision).
type Decision = quotes.Decision

// DestinationType is what a quote's or a transaction's destination is
// (reference TransactionDestinationType) (quotes.DestinationType).
type DestinationType = quotes.DestinationType

// Directory knows the world beyond the platform: who receives at a UMA
// address of another provider, and the lists behind GET /vasps,
// /discoveries and /uma-providers (quotes.Directory).
type Directory = quotes.Directory

// Discovery is a payout bank (GET /discoveries) (quotes.Discovery).
type Discovery = quotes.Discovery

// ExchangeRate is a quoted rate for sending SendingAmount (reference
// ExchangeRate): the rate is fee-exclusive, the amounts include the
// platform's fees (quotes.ExchangeRate).
type ExchangeRate = quotes.ExchangeRate

// ExecuteOptions is the optional body of POST /quotes/{id}/execute: the
// preferred factor of the SCA challenge the call issues (SMS_OTP or
// PASSKEY; TOTP cannot carry dynamic linking and is refused)
// (quotes.ExecuteOptions).
type ExecuteOptions = quotes.ExecuteOptions

// FeeOverride replaces the platform's configured fees on one quote (USD
// sources only; the fixed fee in the source currency) (quotes.FeeOverride).
type FeeOverride = quotes.FeeOverride

// Invitation is a UMA invitation (reference UmaInvitation)
// (quotes.Invitation).
type Invitation = quotes.Invitation

// InvitationRequest creates an invitation (reference
// UmaInvitationCreateRequest) (quotes.InvitationRequest).
type InvitationRequest = quotes.InvitationRequest

// Invitations is the UMA invitations area: a customer invites someone by
// link; claiming it tells the platform (INVITATION.CLAIMED) so that it can
// send the promised amount (quotes.Invitations).
type Invitations = quotes.Invitations

// LockedSide is which amount of a quote the request fixes (reference
// QuoteLockSide): lockedCurrencyAmount is that side's (quotes.LockedSide).
type LockedSide = quotes.LockedSide

// Lookup is the result of a receiver lookup (GET /receiver/uma/{address} or
// /receiver/external-account/{id}) (quotes.Lookup).
type Lookup = quotes.Lookup

// LookupCurrency is a currency a looked-up receiver accepts (reference
// CurrencyPreference); EstimatedExchangeRate is in units of the sender's
// currency per unit of this one, for display only (quotes.LookupCurrency).
type LookupCurrency = quotes.LookupCurrency

// Lookups resolves receivers (UMA addresses and external accounts) and
// answers the directory lists: VASPs, UMA providers and discoveries
// (quotes.Lookups).
type Lookups = quotes.Lookups

// PayerDataField is one piece of sender information a receiver requires
// (quotes.PayerDataField).
type PayerDataField = quotes.PayerDataField

// PaymentRail is the network a payment settles on (reference
// PaymentRail, plus the crypto networks LIGHTNING, SOLANA and SPARK)
// (quotes.PaymentRail).
type PaymentRail = quotes.PaymentRail

// Quote is a locked rate and fee for one transfer (createQuote)
// (quotes.Quote).
type Quote = quotes.Quote

// QuoteDestination is where it goes: an internal or external account
// (destinationType ACCOUNT) or a UMA address (UMA_ADDRESS)
// (quotes.Destination).
type QuoteDestination = quotes.Destination

// QuoteFilter narrows Quotes.List: CustomerID is the sending customer
// (quotes the platform sends from its own accounts have none)
// (quotes.Filter).
type QuoteFilter = quotes.Filter

// QuoteRequest is the body of POST /quotes (quotes.Request).
type QuoteRequest = quotes.Request

// QuoteSCA is quotes.Authorizations.
type QuoteSCA = quotes.Authorizations

// QuoteSource is where a quote's money comes from: an internal account
// (sourceType ACCOUNT) or a payment made when the quote is funded
// (REALTIME_FUNDING) (quotes.Source).
type QuoteSource = quotes.Source

// QuoteStatus is a quote's lifecycle state (quotes.Status).
type QuoteStatus = quotes.Status

// Quotes prices, executes and authorizes quotes, and answers exchange rates
// (quotes.Service).
type Quotes = quotes.Service

// Rails is the engine's side of the rail boundary (eng.Rails)
// (quotes.Rails).
type Rails = quotes.Rails

// RateDetails break the rate and fees down (reference OutgoingRateDetails,
// with the Service renames) (quotes.RateDetails).
type RateDetails = quotes.RateDetails

// RateFees are the fees of an ExchangeRate, in sending minor units
// (quotes.RateFees).
type RateFees = quotes.RateFees

// RateQuery narrows Quotes.ExchangeRates; every member is optional
// (quotes.RateQuery).
type RateQuery = quotes.RateQuery

// RateSource supplies exchange rates (quotes.RateSource).
type RateSource = quotes.RateSource

// ReceiveRequest simulates an incoming UMA payment (POST /sandbox/receive
// and /sandbox/uma/receive) (quotes.ReceiveRequest).
type ReceiveRequest = quotes.ReceiveRequest

// Refund is the refund of a failed outgoing payment (quotes.Refund).
type Refund = quotes.Refund

// RefundStatus is where the refund of a failed outgoing payment stands
// (reference TransactionRefund status) (quotes.RefundStatus).
type RefundStatus = quotes.RefundStatus

// SandboxPayments is the quotes area's part of the sandbox operations
// (Engine.Sandbox): funding an internal account as a deposit, a payer
// funding a real-time funded quote, and incoming payments from sandbox
// counterparties (quotes.Sandbox).
type SandboxPayments = quotes.Sandbox

// SandboxFundingDescription is the description of the INCOMING transaction
// a sandbox funding (Sandbox.Fund) makes (quotes.SandboxFundingDescription).
const SandboxFundingDescription = quotes.SandboxFundingDescription

// SourceType is what a quote's or a transaction's source is (reference
// QuoteSource and TransactionSourceOneOf sourceType) (quotes.SourceType).
type SourceType = quotes.SourceType

// Transaction is an incoming or outgoing payment (reference
// IncomingTransaction / OutgoingTransaction), or a card transaction (type
// CARD, Card set), which is encoded as the reference's CardTransaction
// (quotes.Transaction).
type Transaction = quotes.Transaction

// TransactionDirection says whether a transaction credits or debits the
// customer's account (reference TransactionDirection) (quotes.TxDirection).
type TransactionDirection = quotes.TxDirection

// TransactionFilter narrows Transactions.List (reference filters)
// (quotes.TransactionFilter).
type TransactionFilter = quotes.TransactionFilter

// TransactionStatus is a transaction's lifecycle state (reference
// TransactionStatus) (quotes.TxStatus).
type TransactionStatus = quotes.TxStatus

// TransactionType says which way a transaction goes (reference
// TransactionType; CARD for a card transaction) (quotes.TxType).
type TransactionType = quotes.TxType

// Transactions lists and reads transactions and moves money between a
// customer's own accounts (transfer in and out), with incoming-payment
// decisions, receipts and cancellation (quotes.Transactions).
type Transactions = quotes.Transactions

// TransferInRequest asks to pull Amount from a customer's external account
// into its internal account of the same currency
// (quotes.TransferInRequest).
type TransferInRequest = quotes.TransferInRequest

// TransferOutRequest is the body of the deprecated POST /transfer-out
// (quotes.TransferOutRequest).
type TransferOutRequest = quotes.TransferOutRequest

// TxParty is a transaction's source or destination (reference
// Transaction{Source,Destination}OneOf) (quotes.TxParty).
type TxParty = quotes.TxParty

// UMAProvider is a UMA provider (reference UmaProvider)
// (quotes.UMAProvider).
type UMAProvider = quotes.UMAProvider

// UMAReceiver is a receiver found at a UMA address (quotes.UMAReceiver).
type UMAReceiver = quotes.UMAReceiver

// VASP is a virtual-asset service provider (reference Vasp) (quotes.VASP).
type VASP = quotes.VASP

// WithdrawalFee is the estimate (reference
// EstimateCryptoWithdrawalFeeResponse) (quotes.WithdrawalFee).
type WithdrawalFee = quotes.WithdrawalFee

// WithdrawalFeeRequest asks what withdrawing Amount of Currency from a
// crypto internal account to DestinationAddress on CryptoNetwork costs
// (reference EstimateCryptoWithdrawalFeeRequest)
// (quotes.WithdrawalFeeRequest).
type WithdrawalFeeRequest = quotes.WithdrawalFeeRequest

// InvitationCancelled is quotes.InvitationCancelled.
const InvitationCancelled = quotes.InvitationCancelled

// InvitationClaimed is quotes.InvitationClaimed.
const InvitationClaimed = quotes.InvitationClaimed

// InvitationExpired is quotes.InvitationExpired.
const InvitationExpired = quotes.InvitationExpired

// InvitationPending is quotes.InvitationPending.
const InvitationPending = quotes.InvitationPending

// InvitationURLBase prefixes an invitation's code in its URL
// (quotes.InvitationURLBase).
const InvitationURLBase = quotes.InvitationURLBase

// MaxDescription is quotes.MaxDescription.
const MaxDescription = quotes.MaxDescription

// MaxRemittanceInformation is quotes.MaxRemittanceInformation.
const MaxRemittanceInformation = quotes.MaxRemittanceInformation

// Values of Decision.
const (
	ApproveIncoming = quotes.ApproveIncoming
	RejectIncoming  = quotes.RejectIncoming
)

// Values of DestinationType.
const (
	DestinationAccount    = quotes.DestinationAccount
	DestinationUMAAddress = quotes.DestinationUMAAddress
)

// Values of Duration.
const (
	ApprovalWindow      = quotes.ApprovalWindow
	LookupTTL           = quotes.LookupTTL
	RateCacheTTL        = quotes.RateCacheTTL
	SandboxSlowIncoming = quotes.SandboxSlowIncoming
	ScaChallengeTTL     = quotes.ScaChallengeTTL
)

// Values of EventType: the webhook events of package quotes. A payment
// event's data is the Transaction (TransactionOf), INVITATION.CLAIMED's
// the Invitation (InvitationOf).
const (
	EventIncomingPaymentCompleted            = quotes.EventIncomingPaymentCompleted
	EventIncomingPaymentFailed               = quotes.EventIncomingPaymentFailed
	EventIncomingPaymentPending              = quotes.EventIncomingPaymentPending
	EventInvitationClaimed                   = quotes.EventInvitationClaimed
	EventOutgoingPaymentCompleted            = quotes.EventOutgoingPaymentCompleted
	EventOutgoingPaymentExpired              = quotes.EventOutgoingPaymentExpired
	EventOutgoingPaymentFailed               = quotes.EventOutgoingPaymentFailed
	EventOutgoingPaymentPending              = quotes.EventOutgoingPaymentPending
	EventOutgoingPaymentPendingAuthorization = quotes.EventOutgoingPaymentPendingAuthorization
	EventOutgoingPaymentProcessing           = quotes.EventOutgoingPaymentProcessing
	EventOutgoingPaymentRefundCompleted      = quotes.EventOutgoingPaymentRefundCompleted
	EventOutgoingPaymentRefundFailed         = quotes.EventOutgoingPaymentRefundFailed
	EventOutgoingPaymentRefundPending        = quotes.EventOutgoingPaymentRefundPending
)

// Values of LockedSide.
const (
	LockedReceiving = quotes.Receiving
	LockedSending   = quotes.Sending
)

// Values of PaymentRail.
const (
	PaymentRailACH            = quotes.PaymentRailACH
	PaymentRailACHColombia    = quotes.PaymentRailACHColombia
	PaymentRailBankTransfer   = quotes.PaymentRailBankTransfer
	PaymentRailBreB           = quotes.PaymentRailBreB
	PaymentRailCIPS           = quotes.PaymentRailCIPS
	PaymentRailFAST           = quotes.PaymentRailFAST
	PaymentRailFasterPayments = quotes.PaymentRailFasterPayments
	PaymentRailFedNow         = quotes.PaymentRailFedNow
	PaymentRailInstaPay       = quotes.PaymentRailInstaPay
	PaymentRailLightning      = quotes.PaymentRailLightning
	PaymentRailMobileMoney    = quotes.PaymentRailMobileMoney
	PaymentRailNEFT           = quotes.PaymentRailNEFT
	PaymentRailPESONet        = quotes.PaymentRailPESONet
	PaymentRailPIX            = quotes.PaymentRailPIX
	PaymentRailPayNow         = quotes.PaymentRailPayNow
	PaymentRailRTGS           = quotes.PaymentRailRTGS
	PaymentRailRTP            = quotes.PaymentRailRTP
	PaymentRailSEPA           = quotes.PaymentRailSEPA
	PaymentRailSEPAInstant    = quotes.PaymentRailSEPAInstant
	PaymentRailSPEI           = quotes.PaymentRailSPEI
	PaymentRailSWIFT          = quotes.PaymentRailSWIFT
	PaymentRailSolana         = quotes.PaymentRailSolana
	PaymentRailSpark          = quotes.PaymentRailSpark
	PaymentRailUPI            = quotes.PaymentRailUPI
	PaymentRailUnionPay       = quotes.PaymentRailUnionPay
	PaymentRailWire           = quotes.PaymentRailWire
)

// Values of QuoteStatus.
const (
	QuoteCompleted            = quotes.Completed
	QuoteExpired              = quotes.Expired
	QuoteFailed               = quotes.Failed
	QuotePending              = quotes.Pending
	QuotePendingAuthorization = quotes.PendingAuthorization
	QuoteProcessing           = quotes.Processing
)

// Values of RefundStatus.
const (
	RefundCompleted = quotes.RefundCompleted
	RefundFailed    = quotes.RefundFailed
	RefundPending   = quotes.RefundPending
)

// Values of SourceType.
const (
	SourceAccount         = quotes.SourceAccount
	SourceRealtimeFunding = quotes.SourceRealtimeFunding
	SourceUMAAddress      = quotes.SourceUMAAddress
)

// Values of TransactionDirection.
const (
	TxCredit = quotes.TxCredit
	TxDebit  = quotes.TxDebit
)

// Values of TransactionStatus.
const (
	TxCompleted            = quotes.TxCompleted
	TxExpired              = quotes.TxExpired
	TxFailed               = quotes.TxFailed
	TxPending              = quotes.TxPending
	TxPendingAuthorization = quotes.TxPendingAuthorization
	TxProcessing           = quotes.TxProcessing
	TxRejected             = quotes.TxRejected
)

// Values of TransactionType.
const (
	TxCard     = quotes.TxCard
	TxIncoming = quotes.TxIncoming
	TxOutgoing = quotes.TxOutgoing
)

// PaymentRails are the reference's PaymentRail values: what a quote's or
// transfer's destination.paymentRail may name (and then only a rail of the
// destination account) and what a transaction's paymentRail reports
// (quotes.PaymentRails).
var PaymentRails = quotes.PaymentRails

// PullableAccountTypes are the external account types a quote may pull its
// funds from: US bank accounts, by ACH debit (quotes.PullableAccountTypes).
var PullableAccountTypes = quotes.PullableAccountTypes

// PurposesOfPayment is quotes.PurposesOfPayment.
var PurposesOfPayment = quotes.PurposesOfPayment

// InvitationOf decodes the invitation an INVITATION.CLAIMED event carries;
// another event is INVALID_INPUT (quotes.InvitationOf).
func InvitationOf(ev Event) (*Invitation, error) { return quotes.InvitationOf(ev) }

// TransactionOf decodes the transaction an OUTGOING_PAYMENT.* or
// INCOMING_PAYMENT.* event carries, as stored after the change; another
// event is INVALID_INPUT (quotes.TransactionOf).
func TransactionOf(ev Event) (*Transaction, error) { return quotes.TransactionOf(ev) }

// ------------------------------------------------------------------------
// Cards and the sandbox card network (package cards).

// Card is a debit card bound to internal accounts (reference Card)
// (cards.Card).
type Card = cards.Card

// CardEvent is one simulated network event on a card (cards.CardEvent).
type CardEvent = cards.CardEvent

// CardEventKind names a simulated card network event; its value is the last
// segment of the simulator's path (cards.CardEventKind).
type CardEventKind = cards.CardEventKind

// CardEventOutcome is how the issuer's network answers a simulated event:
// its transaction token, and for authorization-family events a network
// decline, a delay before the funding pull confirms, or a confirmation that
// fails after the pull succeeded (cards.CardEventOutcome).
type CardEventOutcome = cards.CardEventOutcome

// CardFilter narrows Cards.List (reference listCards filters): by
// cardholder, by a funding-source account, by platform card id and by state
// (cards.CardFilter).
type CardFilter = cards.CardFilter

// CardIssue is the issuer's answer to a card request (cards.CardIssue).
type CardIssue = cards.CardIssue

// CardIssueRequest is what the issuer learns of a new card
// (cards.CardIssueRequest).
type CardIssueRequest = cards.CardIssueRequest

// CardIssuer is the port to the card issuer (the issuer of record and its
// processor) (cards.CardIssuer).
type CardIssuer = cards.CardIssuer

// CardLimits bound how many live cards (cards in any state but CLOSED) a
// platform holds: MaxLive over the platform, PerCardholder per cardholder
// (cards.Limits).
type CardLimits = cards.Limits

// CardReveal is a minted reveal URL and when it stops loading (reference
// CardRevealResponse) (cards.CardReveal).
type CardReveal = cards.CardReveal

// CardSimulation is the body of a sandbox card simulator: the members its
// kind takes (reference SandboxCard*Request) (cards.CardSimulation).
type CardSimulation = cards.CardSimulation

// CardSimulationResult is the answer of a simulator: the issuer's token
// (all the reference's 202 body shows), and for the engine's callers the
// card transaction the event created or changed, or the reason an
// authorization was declined (no transaction is recorded for a decline)
// (cards.CardSimulationResult).
type CardSimulationResult = cards.CardSimulationResult

// CardSimulator is the optional capability of a CardIssuer with a sandbox
// network: it answers a simulated card event (the sandbox simulators) with
// the issuer's transaction token and how the network steers the event
// (cards.CardSimulator).
type CardSimulator = cards.CardSimulator

// CardState is a card's lifecycle state (reference CardState)
// (cards.State).
type CardState = cards.State

// CardStateReason is why a card reached a terminal or non-active state
// (reference CardStateReason, with the maker's name replaced by SERVICE)
// (cards.Reason).
type CardStateReason = cards.Reason

// Cards is the card area of the engine: issuance, the state machine,
// reveal, and the sandbox card network simulators (eng.Cards.Create, ...)
// (cards.Service).
type Cards = cards.Service

// CreateCardRequest issues a card (reference CardCreateRequest)
// (cards.CreateCardRequest).
type CreateCardRequest = cards.CreateCardRequest

// CurrencyCode names a currency in a request ({"code": "USD"})
// (cards.CurrencyCode).
type CurrencyCode = cards.CurrencyCode

// OptionalInt64 is a JSON member that may be absent (Set false), null (Set,
// Value nil: clear it) or an integer (Set, Value: set it)
// (cards.OptionalInt64).
type OptionalInt64 = cards.OptionalInt64

// UpdateCardRequest changes a card (reference CardUpdateRequest): any of
// its state, its funding sources (replacing them, in priority order) and
// its spending limit (cards.UpdateCardRequest).
type UpdateCardRequest = cards.UpdateCardRequest

// Values of CardEventKind.
const (
	CardAuthorization                = cards.CardAuthorization
	CardAuthorizationAdvice          = cards.CardAuthorizationAdvice
	CardBalanceInquiry               = cards.CardBalanceInquiry
	CardClearing                     = cards.CardClearing
	CardCreditAuthorization          = cards.CardCreditAuthorization
	CardCreditAuthorizationAdvice    = cards.CardCreditAuthorizationAdvice
	CardFinancialAuthorization       = cards.CardFinancialAuthorization
	CardFinancialCreditAuthorization = cards.CardFinancialCreditAuthorization
	CardReturn                       = cards.CardReturn
	CardReturnReversal               = cards.CardReturnReversal
)

// Values of EventType: the webhook events of package cards. A CARD.*
// event's data is the Card (CardOf), a CARD_TRANSACTION.* event's the
// CardTransaction (CardTransactionOf). EventCardTransaction is the
// CARD_TRANSACTION. prefix, not an event.
const (
	EventCardFundingSourceChange         = cards.EventCardFundingSourceChange
	EventCardStateChange                 = cards.EventCardStateChange
	EventCardTransaction                 = cards.EventCardTransaction
	EventCardTransactionAuthorized       = cards.EventCardTransactionAuthorized
	EventCardTransactionException        = cards.EventCardTransactionException
	EventCardTransactionPartiallySettled = cards.EventCardTransactionPartiallySettled
	EventCardTransactionRefunded         = cards.EventCardTransactionRefunded
	EventCardTransactionSettled          = cards.EventCardTransactionSettled
)

// CardEventKinds lists every simulated event (cards.CardEventKinds).
var CardEventKinds = cards.CardEventKinds

// CardOf decodes the card a CARD.* event carries; another event is
// INVALID_INPUT (cards.CardOf).
func CardOf(ev Event) (*Card, error) { return cards.CardOf(ev) }

// CardTransactionOf decodes the card transaction a CARD_TRANSACTION.* event
// carries; another event is INVALID_INPUT (cards.CardTransactionOf).
func CardTransactionOf(ev Event) (*CardTransaction, error) { return cards.CardTransactionOf(ev) }

// ------------------------------------------------------------------------
// Stablecoin links, tokens, mints and burns (package stablecoins).

// ProviderAccountFilter narrows ListProviderAccounts; zero members match
// all (stablecoins.ProviderAccountFilter).
type ProviderAccountFilter = stablecoins.ProviderAccountFilter

// ProviderAccountInfo is what the provider says about verified credentials
// (stablecoins.ProviderAccountInfo).
type ProviderAccountInfo = stablecoins.ProviderAccountInfo

// ProviderAccountRef names a linked account in calls to the provider, with
// the credentials it was linked with (stablecoins.ProviderAccountRef).
type ProviderAccountRef = stablecoins.ProviderAccountRef

// Stablecoin is a registered provider token (reference Stablecoin, with
// serviceOperationsStatus for gridOperationsStatus)
// (stablecoins.Stablecoin).
type Stablecoin = stablecoins.Stablecoin

// StablecoinBurnDestination is a burn request's payout account (reference
// StablecoinBurnDestination) (stablecoins.BurnDestination).
type StablecoinBurnDestination = stablecoins.BurnDestination

// StablecoinBurnRequest burns Amount and pays its fiat value out
// (stablecoins.BurnRequest).
type StablecoinBurnRequest = stablecoins.BurnRequest

// StablecoinDestination is where an operation's proceeds go: the minted
// tokens' account, or a burn's fiat payout account and rail
// (stablecoins.Destination).
type StablecoinDestination = stablecoins.Destination

// StablecoinEstimatedDelivery is a static timing estimate of a burn's fiat
// payout (stablecoins.EstimatedDelivery).
type StablecoinEstimatedDelivery = stablecoins.EstimatedDelivery

// StablecoinFilter narrows List; zero members match all
// (stablecoins.StablecoinFilter).
type StablecoinFilter = stablecoins.StablecoinFilter

// StablecoinIssuanceStatus is the provider's issuance state of a token
// (stablecoins.IssuanceStatus).
type StablecoinIssuanceStatus = stablecoins.IssuanceStatus

// StablecoinLinkRequest links provider API credentials (reference
// StablecoinProviderAccountLinkRequest) (stablecoins.LinkRequest).
type StablecoinLinkRequest = stablecoins.LinkRequest

// StablecoinLinkStatus is the state of a provider-account link: ACTIVE
// links may be used; INVALID ones no longer verify with the provider;
// REVOKED ones were withdrawn (stablecoins.LinkStatus).
type StablecoinLinkStatus = stablecoins.LinkStatus

// StablecoinMintRequest mints Amount (digits, the token's smallest unit)
// (stablecoins.MintRequest).
type StablecoinMintRequest = stablecoins.MintRequest

// StablecoinOpStatus is the lifecycle state of a mint or burn
// (stablecoins.OpStatus).
type StablecoinOpStatus = stablecoins.OpStatus

// StablecoinOpType is MINT or BURN (stablecoins.OpType).
type StablecoinOpType = stablecoins.OpType

// StablecoinOperation is a mint or burn (reference StablecoinOperation)
// (stablecoins.Operation).
type StablecoinOperation = stablecoins.Operation

// StablecoinOpsStatus is whether a stablecoin is enabled for the Service's
// own operations (serviceOperationsStatus)
// (stablecoins.OpsStatus).
type StablecoinOpsStatus = stablecoins.OpsStatus

// StablecoinPlan is the provider's plan for an operation
// (stablecoins.StablecoinPlan).
type StablecoinPlan = stablecoins.StablecoinPlan

// StablecoinPlanRequest is a mint or burn the engine asks the provider to
// plan (stablecoins.StablecoinPlanRequest).
type StablecoinPlanRequest = stablecoins.StablecoinPlanRequest

// StablecoinProvider is the stablecoin issuer platform behind the
// Stablecoins area (BRALE in the reference)
// (stablecoins.StablecoinProvider).
type StablecoinProvider = stablecoins.StablecoinProvider

// StablecoinProviderAccount is a link to a provider account as the API
// shows it (stablecoins.ProviderAccount).
type StablecoinProviderAccount = stablecoins.ProviderAccount

// StablecoinRegisterRequest registers an existing provider token (reference
// StablecoinRegisterRequest) (stablecoins.RegisterRequest).
type StablecoinRegisterRequest = stablecoins.RegisterRequest

// StablecoinSource is the source of an operation: a mint's funding source
// or a burn's source (reference StablecoinOperationSource, one merged
// shape) (stablecoins.Source).
type StablecoinSource = stablecoins.Source

// StablecoinStep is one future state of an operation
// (stablecoins.StablecoinStep).
type StablecoinStep = stablecoins.StablecoinStep

// StablecoinToken is the provider's record of a token
// (stablecoins.StablecoinToken).
type StablecoinToken = stablecoins.StablecoinToken

// Stablecoins is the stablecoin issuance area: provider-account links,
// registered tokens, their Service-enablement state, and mints and burns,
// whose fiat value moves through the ledger (the token's reserve account,
// stablecoins.Reserve) (stablecoins.Service).
type Stablecoins = stablecoins.Service

// ------------------------------------------------------------------------
// Agents, their policies and actions (package agents).

// Agent is an agent as the API shows it (reference Agent) (agents.Agent).
type Agent = agents.Agent

// AgentAccountRestrictions limit the accounts an agent may use
// (agents.AccountRestrictions).
type AgentAccountRestrictions = agents.AccountRestrictions

// AgentAccountRule overrides the policy for one internal account
// (agents.AccountRule).
type AgentAccountRule = agents.AccountRule

// AgentAction is one money-moving request of an agent (reference
// AgentAction): the quote it executes or the transfer it makes, and once it
// ran, the resulting transaction as it stands now (agents.AgentAction).
type AgentAction = agents.AgentAction

// AgentActionStatus is the state of an agent action (reference
// AgentActionStatus) (agents.ActionStatus).
type AgentActionStatus = agents.ActionStatus

// AgentActionType is what an action does (reference AgentActionType)
// (agents.ActionType).
type AgentActionType = agents.ActionType

// AgentApprovalThresholds force approval above Amount (in Currency); a nil
// Amount is no threshold (agents.ApprovalThresholds).
type AgentApprovalThresholds = agents.ApprovalThresholds

// AgentCreateRequest is the body of POST /agents (createAgent)
// (agents.AgentCreateRequest).
type AgentCreateRequest = agents.AgentCreateRequest

// AgentCreated answers POST /agents: the agent and its first device code
// (agents.AgentCreated).
type AgentCreated = agents.AgentCreated

// AgentCredential answers a redemption: the bearer access token, shown this
// once (only its hash is stored) (agents.AgentCredential).
type AgentCredential = agents.AgentCredential

// AgentDeviceCode is a device code as stored (agents.DeviceCode).
type AgentDeviceCode = agents.DeviceCode

// AgentDeviceCodeStatus answers a device-code status poll
// (agents.AgentDeviceCodeStatus).
type AgentDeviceCodeStatus = agents.AgentDeviceCodeStatus

// AgentExecutionMode says whether an agent's actions run at once (AUTO) or
// wait for the platform's approval (APPROVAL_REQUIRED)
// (agents.ExecutionMode).
type AgentExecutionMode = agents.ExecutionMode

// AgentFilter narrows List; zero members match everything, time bounds are
// inclusive (agents.AgentFilter).
type AgentFilter = agents.AgentFilter

// AgentPermission is what an agent may do (reference AgentPermission)
// (agents.Permission).
type AgentPermission = agents.Permission

// AgentPolicy governs an agent (reference AgentPolicy) (agents.Policy).
type AgentPolicy = agents.Policy

// AgentPolicyUpdate is a partial update of a policy (reference
// AgentPolicyUpdateRequest): nil members keep their value; Permissions,
// when given, replaces the list wholesale (agents.PolicyUpdate).
type AgentPolicyUpdate = agents.PolicyUpdate

// AgentSpendingLimits cap an agent's amounts and counts, in Currency's
// minor units (agents.SpendingLimits).
type AgentSpendingLimits = agents.SpendingLimits

// AgentSpendingLimitsUpdate is a partial update of the spending limits
// (reference AgentSpendingLimitsUpdate): nil members keep their value; a
// nullable limit given as JSON null is removed
// (agents.SpendingLimitsUpdate).
type AgentSpendingLimitsUpdate = agents.SpendingLimitsUpdate

// AgentTransfer is the body of POST /agents/me/transfer-out and transfer-in
// (agents.AgentTransfer).
type AgentTransfer = agents.AgentTransfer

// AgentTransferDetails describe a transfer action (reference
// AgentTransferDetails) (agents.AgentTransferDetails).
type AgentTransferDetails = agents.AgentTransferDetails

// AgentUpdate is the body of PATCH /agents/{id}: nil members keep their
// value (agents.AgentUpdate).
type AgentUpdate = agents.AgentUpdate

// AgentUsage counts an agent's spending against its limits (reference
// AgentUsage) (agents.Usage).
type AgentUsage = agents.Usage

// Agents is the agents area (the reference's Agents operations): the platform
// manages agents, device codes and approvals with its own credentials; an
// agent acts for its one customer with the bearer credential it got by
// redeeming a device code, under its policy (agents.Service).
type Agents = agents.Service

// ApprovalFilter narrows Approvals; zero members match everything, dates
// are inclusive bounds on createdAt (agents.ApprovalFilter).
type ApprovalFilter = agents.ApprovalFilter

// Nullable is an optional member that may be null: Set reports it was
// present; a nil Value is null (agents.Nullable).
type Nullable = agents.Nullable

// EventAgentActionPendingApproval is sent when an agent's action waits for
// its customer's approval; its data is the AgentAction (AgentActionOf)
// (agents.EventAgentActionPendingApproval).
const EventAgentActionPendingApproval = agents.EventAgentActionPendingApproval

// AgentActionOf decodes the action an AGENT_ACTION.PENDING_APPROVAL event
// carries; another event is INVALID_INPUT (agents.AgentActionOf).
func AgentActionOf(ev Event) (*AgentAction, error) { return agents.AgentActionOf(ev) }

// ------------------------------------------------------------------------
// Embedded wallets: credentials, sessions and signed requests (package wallets).

// AuthMethod is a registered credential (reference AuthMethod)
// (wallets.AuthMethod).
type AuthMethod = wallets.AuthMethod

// AuthMethodResponse is an AuthMethod with, for OTP credentials that start
// a challenge, the HPKE target to seal the code to
// (wallets.AuthMethodResponse).
type AuthMethodResponse = wallets.AuthMethodResponse

// AuthSession is an active session (reference AuthSession): its id is a
// Session id, and a legacy (uncompressed clientPublicKey) login also gets
// the session's private key sealed to that key (wallets.AuthSession).
type AuthSession = wallets.AuthSession

// ChallengeRequest is the body of a credential challenge: a passkey's
// clientPublicKey, the key the session will sign with
// (wallets.ChallengeRequest).
type ChallengeRequest = wallets.ChallengeRequest

// CreateCredentialRequest registers a credential on an embedded wallet
// (reference AuthCredentialCreateRequestOneOf)
// (wallets.CreateCredentialRequest).
type CreateCredentialRequest = wallets.CreateCredentialRequest

// CreateDelegatedKeyRequest is the body of POST /auth/delegated-keys, the
// same on all three legs (wallets.CreateDelegatedKeyRequest).
type CreateDelegatedKeyRequest = wallets.CreateDelegatedKeyRequest

// CredentialChallenge answers POST /auth/credentials/{id}/challenge: for
// OTP credentials the AuthMethod with a fresh otpEncryptionTargetBundle,
// for passkeys the WebAuthn challenge with its requestId (reference
// AuthCredentialResponseOneOf) (wallets.CredentialChallenge).
type CredentialChallenge = wallets.CredentialChallenge

// DelegatedKey is a delegated signing key (wallets.DelegatedKey).
type DelegatedKey = wallets.DelegatedKey

// DelegatedKeyFilter narrows Wallets.DelegatedKeys: at least one member
// (wallets.DelegatedKeyFilter).
type DelegatedKeyFilter = wallets.DelegatedKeyFilter

// ExportRequest is the body of POST /internal-accounts/{id}/export
// (wallets.ExportRequest).
type ExportRequest = wallets.ExportRequest

// PasskeyAuthChallenge starts a passkey authentication: challenge is the
// lowercase hex SHA-256 of the session-creation payload, to be passed as
// the UTF-8 bytes of the WebAuthn challenge (wallets.PasskeyAuthChallenge).
type PasskeyAuthChallenge = wallets.PasskeyAuthChallenge

// RefreshRequest is the body of a session refresh (wallets.RefreshRequest).
type RefreshRequest = wallets.RefreshRequest

// Signature is the signed-retry headers of a request (wallets.Signature).
type Signature = wallets.Signature

// SignedChallenge is the 202 answer of a signed flow's first leg (reference
// SignedRequestChallenge; Type is set on the Embedded Wallet Auth routes)
// (wallets.SignedChallenge).
type SignedChallenge = wallets.SignedChallenge

// UpdateInternalAccountRequest is the body of PATCH /internal-accounts/{id}
// (reference InternalAccountUpdateRequest)
// (wallets.UpdateInternalAccountRequest).
type UpdateInternalAccountRequest = wallets.UpdateInternalAccountRequest

// VerifyRequest completes a credential's authentication (reference
// AuthCredentialVerifyRequestOneOf) (wallets.VerifyRequest).
type VerifyRequest = wallets.VerifyRequest

// WalletExport is the sealed export of a wallet (reference
// InternalAccountExportResponse) (wallets.WalletExport).
type WalletExport = wallets.WalletExport

// Wallets serves embedded-wallet authentication: credentials, sessions,
// signed retries, delegated keys, wallet privacy and export, and payments
// from embedded wallets (wallets.Service).
type Wallets = wallets.Service

// CredentialEmailOTP is wallets.CredentialEmailOTP.
const CredentialEmailOTP = wallets.CredentialEmailOTP

// CredentialOAuth is wallets.CredentialOAuth.
const CredentialOAuth = wallets.CredentialOAuth

// CredentialPasskey is wallets.CredentialPasskey.
const CredentialPasskey = wallets.CredentialPasskey

// CredentialSmsOTP is wallets.CredentialSmsOTP.
const CredentialSmsOTP = wallets.CredentialSmsOTP

// DelegatedKeyActive is wallets.DelegatedKeyActive.
const DelegatedKeyActive = wallets.DelegatedKeyActive

// DelegatedKeyPending is wallets.DelegatedKeyPending.
const DelegatedKeyPending = wallets.DelegatedKeyPending

// DelegatedKeyRevoked is wallets.DelegatedKeyRevoked.
const DelegatedKeyRevoked = wallets.DelegatedKeyRevoked

// LegacyPasskeySignature is wallets.LegacyPasskeySignature.
const LegacyPasskeySignature = wallets.LegacyPasskeySignature

// LegacyWalletSignature and LegacyPasskeySignature are the sandbox's legacy
// literals, still accepted in the sandbox only
// (wallets.LegacyWalletSignature).
const LegacyWalletSignature = wallets.LegacyWalletSignature

// SandboxOTPCode is the sandbox's fixed wallet OTP
// (wallets.SandboxOTPCode).
const SandboxOTPCode = wallets.SandboxOTPCode

// WalletOTPAttempts wrong codes on one OTP credential within
// WalletOTPLockout, whichever challenges they answered, end its outstanding
// challenge and lock its OTP logins and challenges until the first of them
// is WalletOTPLockout old: at most WalletOTPAttempts guesses in any
// WalletOTPLockout (429 RATE_LIMITED with Retry-After, the right code
// included) (wallets.WalletOTPAttempts).
const WalletOTPAttempts = wallets.WalletOTPAttempts

// WalletOTPChallengesPerHour is wallets.WalletOTPChallengesPerHour.
const WalletOTPChallengesPerHour = wallets.WalletOTPChallengesPerHour

// Values of Code.
const (
	CodeEmailOtpCredentialSetChanged   = wallets.CodeEmailOtpCredentialSetChanged
	CodeEmailOtpEmailAlreadyExists     = wallets.CodeEmailOtpEmailAlreadyExists
	CodeSmsOtpCredentialSetChanged     = wallets.CodeSmsOtpCredentialSetChanged
	CodeSmsOtpPhoneNumberAlreadyExists = wallets.CodeSmsOtpPhoneNumberAlreadyExists
)

// Values of Duration.
const (
	SignedRequestTTL        = wallets.SignedRequestTTL
	WalletOTPLockout        = wallets.WalletOTPLockout
	WalletOTPResendInterval = wallets.WalletOTPResendInterval
	WalletOTPTTL            = wallets.WalletOTPTTL
	WalletSessionTTL        = wallets.WalletSessionTTL
)

// CredentialTypes are the credential types (wallets.CredentialTypes).
var CredentialTypes = wallets.CredentialTypes

// DefaultWalletRelyingParty is the relying party of a local sandbox
// (wallets.DefaultWalletRelyingParty).
var DefaultWalletRelyingParty = wallets.DefaultWalletRelyingParty

// ------------------------------------------------------------------------
// Money values (package money).

// Rate is an exchange rate held as an exact decimal: sending-currency major
// units per one receiving-currency major unit, fees excluded (money.Rate).
type Rate = money.Rate

// ------------------------------------------------------------------------
// The cryptography of wallets and passkeys (package walletauth).

// PasskeyAssertion is an authentication response
// (navigator.credentials.get()), with every binary field base64url-encoded
// (walletauth.Assertion).
type PasskeyAssertion = walletauth.Assertion

// PasskeyAttestation is a registration response
// (navigator.credentials.create()), with every binary field
// base64url-encoded, as the reference carries it (walletauth.Attestation).
type PasskeyAttestation = walletauth.Attestation
