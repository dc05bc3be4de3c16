package engine

import "github.com/paygrid/payments/internal/errs"

// The API's error codes, the error type and the store sentinels are
// package errs's, a leaf; the kernel re-exports every name, so an area and
// the root name them here as before.

// Code is an error code of the API, with its HTTP status (errs.Code).
type Code = errs.Code

// 400
const (
	CodeInvalidInput                   = errs.CodeInvalidInput
	CodeInvalidReceiver                = errs.CodeInvalidReceiver
	CodeAmountOutOfRange               = errs.CodeAmountOutOfRange
	CodeInvalidCurrency                = errs.CodeInvalidCurrency
	CodeInvalidTimestamp               = errs.CodeInvalidTimestamp
	CodeInvalidRequestFormat           = errs.CodeInvalidRequestFormat
	CodeInvalidBankAccount             = errs.CodeInvalidBankAccount
	CodeInvalidAmount                  = errs.CodeInvalidAmount
	CodeWebhookEndpointNotSet          = errs.CodeWebhookEndpointNotSet
	CodeWebhookDeliveryError           = errs.CodeWebhookDeliveryError
	CodeExternalAccountVerificationReq = errs.CodeExternalAccountVerificationReq
	CodeInsufficientFunds              = errs.CodeInsufficientFunds
	CodeQuoteExpired                   = errs.CodeQuoteExpired
	CodeQuoteRateUnavailable           = errs.CodeQuoteRateUnavailable
	CodeInvalidUmaAddress              = errs.CodeInvalidUmaAddress
	CodeBodyTooLarge                   = errs.CodeBodyTooLarge
	CodeUnsupportedMediaType           = errs.CodeUnsupportedMediaType
)

// 401, 403
const (
	CodeUnauthorized           = errs.CodeUnauthorized
	CodeInvalidSignature       = errs.CodeInvalidSignature
	CodeWalletSignatureMissing = errs.CodeWalletSignatureMissing
	CodeForbidden              = errs.CodeForbidden
	CodeUserNotReady           = errs.CodeUserNotReady
	CodeCounterpartyNotAllowed = errs.CodeCounterpartyNotAllowed
	CodeVelocityLimitExceeded  = errs.CodeVelocityLimitExceeded
)

// 404, 405
const (
	CodeNotFound            = errs.CodeNotFound
	CodeTransactionNotFound = errs.CodeTransactionNotFound
	CodeUserNotFound        = errs.CodeUserNotFound
	CodeQuoteNotFound       = errs.CodeQuoteNotFound
	CodeTokenNotFound       = errs.CodeTokenNotFound
	CodeReferenceNotFound   = errs.CodeReferenceNotFound
	CodeUmaNotFound         = errs.CodeUmaNotFound
	CodeAccountNotFound     = errs.CodeAccountNotFound
	CodeCustomerNotFound    = errs.CodeCustomerNotFound
	CodePlatformNotFound    = errs.CodePlatformNotFound
	CodeRequestNotFound     = errs.CodeRequestNotFound
	CodeMethodNotAllowed    = errs.CodeMethodNotAllowed
)

// 409
const (
	CodeConflict                              = errs.CodeConflict
	CodeTransactionNotPendingPlatformApproval = errs.CodeTransactionNotPendingPlatformApproval
	CodeBeneficiaryTrusted                    = errs.CodeBeneficiaryTrusted
	CodeBankAccountValidationPending          = errs.CodeBankAccountValidationPending
	CodeInvalidStateTransition                = errs.CodeInvalidStateTransition
	CodeDuplicateExternalAccount              = errs.CodeDuplicateExternalAccount
	CodePasskeyAlreadyEnrolled                = errs.CodePasskeyAlreadyEnrolled
)

// 429, 5xx
const (
	CodeRateLimited        = errs.CodeRateLimited
	CodeServiceSwitchError = errs.CodeServiceSwitchError
	CodeInternalError      = errs.CodeInternalError
	CodeNotImplemented     = errs.CodeNotImplemented
	CodeServiceUnavailable = errs.CodeServiceUnavailable
)

// Codes returns every code the engine can return, the kernel's and the
// registered areas' (errs.Codes).
func Codes() []Code { return errs.Codes() }

// CodeStatus is the kernel's code-to-status table (errs.CodeStatus).
var CodeStatus = errs.CodeStatus

// Store sentinels (errs): every Store returns them, wrapped or bare.
var (
	ErrNotFound      = errs.ErrNotFound
	ErrConflict      = errs.ErrConflict
	ErrReadOnly      = errs.ErrReadOnly
	ErrClosed        = errs.ErrClosed
	ErrUnavailable   = errs.ErrUnavailable
	ErrCommitUnknown = errs.ErrCommitUnknown
)

// RetryAfterUnavailable is how long a client is told to wait before it
// tries again a request refused for ErrUnavailable.
const RetryAfterUnavailable = errs.RetryAfterUnavailable

// FieldError is one invalid request field (errs.FieldError).
type FieldError = errs.FieldError

// Error is the one error type the engine returns to callers (errs.Error).
type Error = errs.Error

// Errorf returns an *Error with code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error { return errs.Errorf(code, format, args...) }

// Invalid is InvalidAs(CodeInvalidInput, err) (errs.Invalid).
func Invalid(err error) error { return errs.Invalid(err) }

// InvalidAs turns field errors into one *Error with code (errs.InvalidAs).
func InvalidAs(code Code, err error) error { return errs.InvalidAs(code, err) }

// CodeOf returns the code of err (errs.CodeOf).
func CodeOf(err error) Code { return errs.CodeOf(err) }

// MessageOf returns the message of err safe to show a client (errs.MessageOf).
func MessageOf(err error) string { return errs.MessageOf(err) }

// NotFound turns ErrNotFound into an *Error with code naming what and id
// (errs.NotFound).
func NotFound(err error, code Code, what, id string) error { return errs.NotFound(err, code, what, id) }

// RenameFields renames the fields of an *Error (errs.RenameFields).
func RenameFields(err error, names map[string]string) error { return errs.RenameFields(err, names) }
