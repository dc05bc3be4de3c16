package errs

import (
	"maps"
	"sync"
	"sync/atomic"
)

// Code is an error code of the API: the reference's enums and the more
// precise codes this API adds (CUSTOMER_NOT_FOUND rather than NOT_FOUND).
// The constants below are the kernel's: those several areas (or the
// kernel and the HTTP layer) return, grouped by their HTTP status. A code
// only one area returns is declared in that area's package and registered
// with it (Register, from the kernel's AreaDef.Codes).
type Code string

// 400
const (
	CodeInvalidInput                   Code = "INVALID_INPUT"
	CodeInvalidReceiver                Code = "INVALID_RECEIVER"
	CodeAmountOutOfRange               Code = "AMOUNT_OUT_OF_RANGE"
	CodeInvalidCurrency                Code = "INVALID_CURRENCY"
	CodeInvalidTimestamp               Code = "INVALID_TIMESTAMP"
	CodeInvalidRequestFormat           Code = "INVALID_REQUEST_FORMAT"
	CodeInvalidBankAccount             Code = "INVALID_BANK_ACCOUNT"
	CodeInvalidAmount                  Code = "INVALID_AMOUNT"
	CodeWebhookEndpointNotSet          Code = "WEBHOOK_ENDPOINT_NOT_SET"
	CodeWebhookDeliveryError           Code = "WEBHOOK_DELIVERY_ERROR"
	CodeExternalAccountVerificationReq Code = "EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED"
	CodeInsufficientFunds              Code = "INSUFFICIENT_FUNDS"
	CodeQuoteExpired                   Code = "QUOTE_EXPIRED"
	CodeQuoteRateUnavailable           Code = "QUOTE_RATE_UNAVAILABLE"
	CodeInvalidUmaAddress              Code = "INVALID_UMA_ADDRESS"
	CodeBodyTooLarge                   Code = "PAYLOAD_TOO_LARGE"
	// CodeUnsupportedMediaType refuses a request body that is not declared
	// as application/json (415). Not in the reference's enums; see the
	// README's deliberate deviations.
	CodeUnsupportedMediaType Code = "UNSUPPORTED_MEDIA_TYPE"
)

// 401, 403
const (
	CodeUnauthorized           Code = "UNAUTHORIZED"
	CodeInvalidSignature       Code = "INVALID_SIGNATURE"
	CodeWalletSignatureMissing Code = "WALLET_SIGNATURE_MISSING"
	CodeForbidden              Code = "FORBIDDEN"
	CodeUserNotReady           Code = "USER_NOT_READY"
	CodeCounterpartyNotAllowed Code = "COUNTERPARTY_NOT_ALLOWED"
	CodeVelocityLimitExceeded  Code = "VELOCITY_LIMIT_EXCEEDED"
)

// 404, 405
const (
	CodeNotFound            Code = "NOT_FOUND"
	CodeTransactionNotFound Code = "TRANSACTION_NOT_FOUND"
	CodeUserNotFound        Code = "USER_NOT_FOUND"
	CodeQuoteNotFound       Code = "QUOTE_NOT_FOUND"
	CodeTokenNotFound       Code = "TOKEN_NOT_FOUND"
	CodeReferenceNotFound   Code = "REFERENCE_NOT_FOUND"
	CodeUmaNotFound         Code = "UMA_NOT_FOUND"
	CodeAccountNotFound     Code = "ACCOUNT_NOT_FOUND"
	CodeCustomerNotFound    Code = "CUSTOMER_NOT_FOUND"
	CodePlatformNotFound    Code = "PLATFORM_NOT_FOUND"
	CodeRequestNotFound     Code = "REQUEST_NOT_FOUND"
	CodeMethodNotAllowed    Code = "METHOD_NOT_ALLOWED"
)

// 409
const (
	CodeConflict                              Code = "CONFLICT"
	CodeTransactionNotPendingPlatformApproval Code = "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL"
	CodeBeneficiaryTrusted                    Code = "BENEFICIARY_TRUSTED"
	CodeBankAccountValidationPending          Code = "BANK_ACCOUNT_VALIDATION_PENDING"
	CodeInvalidStateTransition                Code = "INVALID_STATE_TRANSITION"
	CodeDuplicateExternalAccount              Code = "DUPLICATE_EXTERNAL_ACCOUNT"
	CodePasskeyAlreadyEnrolled                Code = "PASSKEY_ALREADY_ENROLLED"
)

// 429, 5xx
const (
	CodeRateLimited        Code = "RATE_LIMITED"
	CodeServiceSwitchError Code = "SERVICE_SWITCH_ERROR"
	CodeInternalError      Code = "INTERNAL_ERROR"
	CodeNotImplemented     Code = "NOT_IMPLEMENTED"
	CodeServiceUnavailable Code = "SERVICE_UNAVAILABLE"
)

// Status returns the HTTP status of code: the kernel's table (CodeStatus),
// then the codes the areas registered, and 500 for a code neither knows.
// It is the one code-to-status table; the HTTP layer uses it.
func (c Code) Status() int {
	if s, ok := CodeStatus[c]; ok {
		return s
	}
	if s, ok := registeredCodes()[c]; ok {
		return s
	}
	return 500
}

// Codes returns every code the engine can return, in no particular order:
// the kernel's and those of every area registered by New so far (every
// area an engine of this process has, once one is built).
func Codes() []Code {
	registered := registeredCodes()
	out := make([]Code, 0, len(CodeStatus)+len(registered))
	for c := range CodeStatus {
		out = append(out, c)
	}
	for c := range registered {
		out = append(out, c)
	}
	return out
}

// CodeStatus is the kernel's code-to-status table, fixed at compile time
// and read-only: the areas' codes are not in it (see Code.Status).
var CodeStatus = byStatus(map[int][]Code{
	400: {CodeInvalidInput, CodeInvalidReceiver, CodeAmountOutOfRange, CodeInvalidCurrency,
		CodeInvalidTimestamp, CodeInvalidRequestFormat, CodeInvalidBankAccount, CodeInvalidAmount,
		CodeWebhookEndpointNotSet, CodeWebhookDeliveryError, CodeExternalAccountVerificationReq,
		CodeInsufficientFunds, CodeQuoteExpired, CodeQuoteRateUnavailable, CodeInvalidUmaAddress},
	401: {CodeUnauthorized, CodeInvalidSignature, CodeWalletSignatureMissing},
	403: {CodeForbidden, CodeUserNotReady, CodeCounterpartyNotAllowed, CodeVelocityLimitExceeded},
	404: {CodeNotFound, CodeTransactionNotFound, CodeUserNotFound, CodeQuoteNotFound,
		CodeTokenNotFound, CodeReferenceNotFound, CodeUmaNotFound, CodeAccountNotFound,
		CodeCustomerNotFound, CodePlatformNotFound, CodeRequestNotFound},
	405: {CodeMethodNotAllowed},
	409: {CodeConflict, CodeTransactionNotPendingPlatformApproval, CodeBeneficiaryTrusted,
		CodeBankAccountValidationPending, CodeInvalidStateTransition, CodeDuplicateExternalAccount,
		CodePasskeyAlreadyEnrolled},
	413: {CodeBodyTooLarge},
	415: {CodeUnsupportedMediaType},
	429: {CodeRateLimited},
	500: {CodeServiceSwitchError, CodeInternalError},
	501: {CodeNotImplemented},
	503: {CodeServiceUnavailable},
})

// byStatus turns codes listed by status into a code-to-status table.
func byStatus(groups map[int][]Code) map[Code]int {
	out := map[Code]int{}
	for status, codes := range groups {
		for _, c := range codes {
			out[c] = status
		}
	}
	return out
}

// areaCodes holds the codes the areas declared (AreaDef.Codes), with
// their status. It is replaced whole, under areaCodesMu, when New
// registers an area with a code it did not hold yet, and read without a
// lock, so an error written by one engine never races with another's New.
var (
	areaCodes   atomic.Pointer[map[Code]int]
	areaCodesMu sync.Mutex
)

// Register adds an area's codes (AreaDef.Codes) to areaCodes. A code declared with
// two statuses, or one the kernel already has, panics: it is a
// programming error.
func Register(codes map[Code]int) {
	if len(codes) == 0 {
		return
	}
	areaCodesMu.Lock()
	defer areaCodesMu.Unlock()
	old := registeredCodes()
	var next map[Code]int
	for c, s := range codes {
		if _, dup := CodeStatus[c]; dup {
			panic("payments: code " + string(c) + " is the kernel's and an area's")
		}
		if was, ok := old[c]; ok {
			if was != s {
				panic("payments: code " + string(c) + " declared with two statuses")
			}
			continue
		}
		if next == nil {
			next = maps.Clone(old)
			if next == nil {
				next = map[Code]int{}
			}
		}
		next[c] = s
	}
	if next != nil {
		areaCodes.Store(&next)
	}
}

// registeredCodes returns the table of areaCodes (nil before any area
// registered a code); the caller must not write it.
func registeredCodes() map[Code]int {
	if p := areaCodes.Load(); p != nil {
		return *p
	}
	return nil
}
