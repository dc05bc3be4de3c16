package payments

import "github.com/paygrid/payments/internal/engine"

// Moved to github.com/paygrid/payments/internal/engine.

var Balance = engine.Balance
var CheckLedger = engine.CheckLedger

type Claimer = engine.Claimer
type Code = engine.Code

const CodeAccountLocked = engine.CodeAccountLocked
const CodeAccountNotFound = engine.CodeAccountNotFound
const CodeAmountOutOfRange = engine.CodeAmountOutOfRange
const CodeAuthMethodNotFound = engine.CodeAuthMethodNotFound
const CodeBankAccountValidationPending = engine.CodeBankAccountValidationPending
const CodeBeneficiaryTrusted = engine.CodeBeneficiaryTrusted
const CodeBodyTooLarge = engine.CodeBodyTooLarge
const CodeBulkUploadJobNotFound = engine.CodeBulkUploadJobNotFound
const CodeCardAlreadyClosed = engine.CodeCardAlreadyClosed
const CodeCardLimitReached = engine.CodeCardLimitReached
const CodeCardNotMutable = engine.CodeCardNotMutable
const CodeCardholderKycNotApproved = engine.CodeCardholderKycNotApproved
const CodeConflict = engine.CodeConflict
const CodeCounterpartyNotAllowed = engine.CodeCounterpartyNotAllowed
const CodeCustomerDeleted = engine.CodeCustomerDeleted
const CodeCustomerNotFound = engine.CodeCustomerNotFound
const CodeDocumentAlreadyExists = engine.CodeDocumentAlreadyExists
const CodeDocumentHolderNotFound = engine.CodeDocumentHolderNotFound
const CodeDocumentRejectedDataMismatch = engine.CodeDocumentRejectedDataMismatch
const CodeDocumentRejectedExpired = engine.CodeDocumentRejectedExpired
const CodeDocumentRejectedIncomplete = engine.CodeDocumentRejectedIncomplete
const CodeDocumentRejectedLowQuality = engine.CodeDocumentRejectedLowQuality
const CodeDocumentRejectedSuspectedFraud = engine.CodeDocumentRejectedSuspectedFraud
const CodeDocumentRejectedUnsuitable = engine.CodeDocumentRejectedUnsuitable
const CodeDuplicateExternalAccount = engine.CodeDuplicateExternalAccount
const CodeEmailOtpCredentialAlreadyExists = engine.CodeEmailOtpCredentialAlreadyExists
const CodeEndUserTermsNotAccepted = engine.CodeEndUserTermsNotAccepted
const CodeEndUserTermsVersionNotFound = engine.CodeEndUserTermsVersionNotFound
const CodeExternalAccountVerificationReq = engine.CodeExternalAccountVerificationReq
const CodeForbidden = engine.CodeForbidden
const CodeFundingSourceIneligible = engine.CodeFundingSourceIneligible
const CodeInsufficientFunds = engine.CodeInsufficientFunds
const CodeInternalError = engine.CodeInternalError
const CodeInvalidAmount = engine.CodeInvalidAmount
const CodeInvalidBankAccount = engine.CodeInvalidBankAccount
const CodeInvalidCurrency = engine.CodeInvalidCurrency
const CodeInvalidInput = engine.CodeInvalidInput
const CodeInvalidReceiver = engine.CodeInvalidReceiver
const CodeInvalidRequestFormat = engine.CodeInvalidRequestFormat
const CodeInvalidSignature = engine.CodeInvalidSignature
const CodeInvalidStateTransition = engine.CodeInvalidStateTransition
const CodeInvalidTimestamp = engine.CodeInvalidTimestamp
const CodeInvalidUmaAddress = engine.CodeInvalidUmaAddress
const CodeInvitationAlreadyClaimed = engine.CodeInvitationAlreadyClaimed
const CodeInvitationCancelled = engine.CodeInvitationCancelled
const CodeInvitationNotFound = engine.CodeInvitationNotFound
const CodeInvitationsNotConfigured = engine.CodeInvitationsNotConfigured
const CodeLookupRequestFailed = engine.CodeLookupRequestFailed
const CodeLookupRequestNotFound = engine.CodeLookupRequestNotFound
const CodeMethodNotAllowed = engine.CodeMethodNotAllowed
const CodeMissingMandatoryUserInfo = engine.CodeMissingMandatoryUserInfo
const CodeMissingRequiredUmaParameters = engine.CodeMissingRequiredUmaParameters
const CodeNotFound = engine.CodeNotFound
const CodeNotImplemented = engine.CodeNotImplemented

var CodeOf = engine.CodeOf

const CodePasskeyAlreadyEnrolled = engine.CodePasskeyAlreadyEnrolled
const CodePasskeyCredentialAlreadyExists = engine.CodePasskeyCredentialAlreadyExists
const CodePlatformNotFound = engine.CodePlatformNotFound
const CodeQuoteExpired = engine.CodeQuoteExpired
const CodeQuoteNotFound = engine.CodeQuoteNotFound
const CodeQuoteRateUnavailable = engine.CodeQuoteRateUnavailable
const CodeQuoteRequestFailed = engine.CodeQuoteRequestFailed
const CodeRateLimited = engine.CodeRateLimited
const CodeReferenceNotFound = engine.CodeReferenceNotFound
const CodeRequestIDMissing = engine.CodeRequestIDMissing
const CodeRequestNotFound = engine.CodeRequestNotFound
const CodeScaSessionRequired = engine.CodeScaSessionRequired
const CodeSelfPayment = engine.CodeSelfPayment
const CodeSenderNotAccepted = engine.CodeSenderNotAccepted
const CodeServiceSwitchError = engine.CodeServiceSwitchError
const CodeServiceUnavailable = engine.CodeServiceUnavailable
const CodeSessionNotFound = engine.CodeSessionNotFound
const CodeSmsOtpCredentialAlreadyExists = engine.CodeSmsOtpCredentialAlreadyExists
const CodeStablecoinAmountNotRepresentable = engine.CodeStablecoinAmountNotRepresentable
const CodeStablecoinBurnSourceNotSupported = engine.CodeStablecoinBurnSourceNotSupported
const CodeStablecoinExternalAccountLinkFailed = engine.CodeStablecoinExternalAccountLinkFailed
const CodeStablecoinExternalAccountLinkMethodReq = engine.CodeStablecoinExternalAccountLinkMethodReq
const CodeStablecoinExternalAccountNotFound = engine.CodeStablecoinExternalAccountNotFound
const CodeStablecoinExternalAccountNotLinked = engine.CodeStablecoinExternalAccountNotLinked
const CodeStablecoinExternalAccountNotSupported = engine.CodeStablecoinExternalAccountNotSupported
const CodeStablecoinExternalAccountProviderLinkFail = engine.CodeStablecoinExternalAccountProviderLinkFail
const CodeStablecoinExternalAccountProviderLinkReq = engine.CodeStablecoinExternalAccountProviderLinkReq
const CodeStablecoinNotFound = engine.CodeStablecoinNotFound
const CodeStablecoinNotProvisioned = engine.CodeStablecoinNotProvisioned
const CodeStablecoinOperationNotFound = engine.CodeStablecoinOperationNotFound
const CodeStablecoinOperationNotSupported = engine.CodeStablecoinOperationNotSupported
const CodeStablecoinProviderAccountInvalid = engine.CodeStablecoinProviderAccountInvalid
const CodeStablecoinProviderAccountNotFound = engine.CodeStablecoinProviderAccountNotFound
const CodeStablecoinProviderAccountRevoked = engine.CodeStablecoinProviderAccountRevoked
const CodeStablecoinProviderAccountSelectionRequired = engine.CodeStablecoinProviderAccountSelectionRequired
const CodeStablecoinProviderError = engine.CodeStablecoinProviderError
const CodeStablecoinProviderSourceNotLinked = engine.CodeStablecoinProviderSourceNotLinked
const CodeStablecoinServiceEnablementNotRequestable = engine.CodeStablecoinServiceEnablementNotRequestable
const CodeStablecoinServiceOperationsNotEnabled = engine.CodeStablecoinServiceOperationsNotEnabled
const CodeStablecoinSymbolAlreadyExists = engine.CodeStablecoinSymbolAlreadyExists
const CodeStablecoinTokenIdentifierAlreadyExists = engine.CodeStablecoinTokenIdentifierAlreadyExists
const CodeStablecoinVerificationFailed = engine.CodeStablecoinVerificationFailed
const CodeTokenNotFound = engine.CodeTokenNotFound
const CodeTransactionNotCancellable = engine.CodeTransactionNotCancellable
const CodeTransactionNotFound = engine.CodeTransactionNotFound
const CodeTransactionNotPendingPlatformApproval = engine.CodeTransactionNotPendingPlatformApproval
const CodeTransactionSizeLimitExceeded = engine.CodeTransactionSizeLimitExceeded
const CodeUmaAddressExists = engine.CodeUmaAddressExists
const CodeUmaNotFound = engine.CodeUmaNotFound
const CodeUnauthorized = engine.CodeUnauthorized
const CodeUnsupportedMediaType = engine.CodeUnsupportedMediaType
const CodeUserNotFound = engine.CodeUserNotFound
const CodeUserNotReady = engine.CodeUserNotReady
const CodeVelocityLimitExceeded = engine.CodeVelocityLimitExceeded
const CodeVerificationNotFound = engine.CodeVerificationNotFound
const CodeWalletNotProvisioned = engine.CodeWalletNotProvisioned
const CodeWalletSignatureBodyMismatch = engine.CodeWalletSignatureBodyMismatch
const CodeWalletSignatureInvalid = engine.CodeWalletSignatureInvalid
const CodeWalletSignatureMalformed = engine.CodeWalletSignatureMalformed
const CodeWalletSignatureMissing = engine.CodeWalletSignatureMissing
const CodeWebhookDeliveryError = engine.CodeWebhookDeliveryError
const CodeWebhookEndpointNotSet = engine.CodeWebhookEndpointNotSet

var Codes = engine.Codes
var ContendedKeys = engine.ContendedKeys

type DeadLetter = engine.DeadLetter

const DefaultLimit = engine.DefaultLimit

type Delivery = engine.Delivery

const DeliveryDelivered = engine.DeliveryDelivered
const DeliveryFailed = engine.DeliveryFailed

type DeliveryFilter = engine.DeliveryFilter

const DeliveryPending = engine.DeliveryPending

var ErrClosed = engine.ErrClosed
var ErrConflict = engine.ErrConflict
var ErrNotFound = engine.ErrNotFound
var ErrPermanent = engine.ErrPermanent
var ErrReadOnly = engine.ErrReadOnly

type Error = engine.Error

var Errorf = engine.Errorf

type Event = engine.Event

const EventTest = engine.EventTest

type EventType = engine.EventType
type FieldError = engine.FieldError
type Idempotency = engine.Idempotency

var Invalid = engine.Invalid
var InvalidAs = engine.InvalidAs

type LedgerEntry = engine.LedgerEntry
type LedgerTx = engine.LedgerTx
type ListParams = engine.ListParams

const MaxIdempotencyKeyLength = engine.MaxIdempotencyKeyLength
const MaxLimit = engine.MaxLimit

var MessageOf = engine.MessageOf

type Notifier = engine.Notifier
type NotifierFunc = engine.NotifierFunc
type Page[T any] = engine.Page[T]

var Post = engine.Post

type Posting = engine.Posting

var PrefixEnd = engine.PrefixEnd

type RecordKey = engine.RecordKey
type RetryPolicy = engine.RetryPolicy

var RetryableView = engine.RetryableView

type ScanOptions = engine.ScanOptions
type Store = engine.Store
type TestWebhookResult = engine.TestWebhookResult
type Tx = engine.Tx
type WebhookDelivery = engine.WebhookDelivery
type WebhookSender = engine.WebhookSender
type Webhooks = engine.Webhooks

var WithContended = engine.WithContended
var WithRetryableView = engine.WithRetryableView
