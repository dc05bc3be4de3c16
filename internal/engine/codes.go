package engine

// Code is an error code of the API: the reference's enums and the more
// precise codes this API adds (CUSTOMER_NOT_FOUND rather than NOT_FOUND).
// The constants below are grouped by their HTTP status (Status); an area
// with codes of its own declares them in its package and adds them to
// CodeStatus when it is initialized.
type Code string

// 400
const (
	CodeInvalidInput                    Code = "INVALID_INPUT"
	CodeEndUserTermsVersionNotFound     Code = "END_USER_TERMS_VERSION_NOT_FOUND"
	CodeMissingMandatoryUserInfo        Code = "MISSING_MANDATORY_USER_INFO"
	CodeInvalidUmaAddress               Code = "INVALID_UMA_ADDRESS"
	CodeQuoteRequestFailed              Code = "QUOTE_REQUEST_FAILED"
	CodeInvalidReceiver                 Code = "INVALID_RECEIVER"
	CodeSenderNotAccepted               Code = "SENDER_NOT_ACCEPTED"
	CodeAmountOutOfRange                Code = "AMOUNT_OUT_OF_RANGE"
	CodeInvalidCurrency                 Code = "INVALID_CURRENCY"
	CodeInvalidTimestamp                Code = "INVALID_TIMESTAMP"
	CodeInvalidRequestFormat            Code = "INVALID_REQUEST_FORMAT"
	CodeInvalidBankAccount              Code = "INVALID_BANK_ACCOUNT"
	CodeSelfPayment                     Code = "SELF_PAYMENT"
	CodeLookupRequestFailed             Code = "LOOKUP_REQUEST_FAILED"
	CodeInvalidAmount                   Code = "INVALID_AMOUNT"
	CodeWebhookEndpointNotSet           Code = "WEBHOOK_ENDPOINT_NOT_SET"
	CodeWebhookDeliveryError            Code = "WEBHOOK_DELIVERY_ERROR"
	CodeTransactionSizeLimitExceeded    Code = "TRANSACTION_SIZE_LIMIT_EXCEEDED"
	CodeExternalAccountVerificationReq  Code = "EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED"
	CodeInsufficientFunds               Code = "INSUFFICIENT_FUNDS"
	CodeQuoteExpired                    Code = "QUOTE_EXPIRED"
	CodeQuoteRateUnavailable            Code = "QUOTE_RATE_UNAVAILABLE"
	CodeFundingSourceIneligible         Code = "FUNDING_SOURCE_INELIGIBLE"
	CodeEmailOtpCredentialAlreadyExists Code = "EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS"
	CodeSmsOtpCredentialAlreadyExists   Code = "SMS_OTP_CREDENTIAL_ALREADY_EXISTS"
	CodePasskeyCredentialAlreadyExists  Code = "PASSKEY_CREDENTIAL_ALREADY_EXISTS"
	CodeCardholderKycNotApproved        Code = "CARDHOLDER_KYC_NOT_APPROVED"
	CodeInvitationAlreadyClaimed        Code = "INVITATION_ALREADY_CLAIMED"
	CodeInvitationsNotConfigured        Code = "INVITATIONS_NOT_CONFIGURED"
	CodeInvitationCancelled             Code = "INVITATION_CANCELLED"
	CodeMissingRequiredUmaParameters    Code = "MISSING_REQUIRED_UMA_PARAMETERS"
	CodeDocumentRejectedLowQuality      Code = "LOW_QUALITY"
	CodeDocumentRejectedDataMismatch    Code = "DATA_MISMATCH"
	CodeDocumentRejectedExpired         Code = "EXPIRED"
	CodeDocumentRejectedSuspectedFraud  Code = "SUSPECTED_FRAUD"
	CodeDocumentRejectedUnsuitable      Code = "UNSUITABLE_DOCUMENT"
	CodeDocumentRejectedIncomplete      Code = "INCOMPLETE"
	CodeBodyTooLarge                    Code = "PAYLOAD_TOO_LARGE"
	// CodeUnsupportedMediaType refuses a request body that is not declared
	// as application/json (415). Not in the reference's enums; see the
	// README's deliberate deviations.
	CodeUnsupportedMediaType Code = "UNSUPPORTED_MEDIA_TYPE"
)

// 401, 403
const (
	CodeUnauthorized                Code = "UNAUTHORIZED"
	CodeInvalidSignature            Code = "INVALID_SIGNATURE"
	CodeWalletSignatureMissing      Code = "WALLET_SIGNATURE_MISSING"
	CodeWalletSignatureMalformed    Code = "WALLET_SIGNATURE_MALFORMED"
	CodeWalletSignatureBodyMismatch Code = "WALLET_SIGNATURE_BODY_MISMATCH"
	CodeWalletSignatureInvalid      Code = "WALLET_SIGNATURE_INVALID"
	CodeRequestIDMissing            Code = "REQUEST_ID_MISSING"
	CodeForbidden                   Code = "FORBIDDEN"
	CodeUserNotReady                Code = "USER_NOT_READY"
	CodeCounterpartyNotAllowed      Code = "COUNTERPARTY_NOT_ALLOWED"
	CodeVelocityLimitExceeded       Code = "VELOCITY_LIMIT_EXCEEDED"
	CodeEndUserTermsNotAccepted     Code = "END_USER_TERMS_NOT_ACCEPTED"
)

// 404, 405, 410
const (
	CodeNotFound               Code = "NOT_FOUND"
	CodeTransactionNotFound    Code = "TRANSACTION_NOT_FOUND"
	CodeInvitationNotFound     Code = "INVITATION_NOT_FOUND"
	CodeUserNotFound           Code = "USER_NOT_FOUND"
	CodeQuoteNotFound          Code = "QUOTE_NOT_FOUND"
	CodeLookupRequestNotFound  Code = "LOOKUP_REQUEST_NOT_FOUND"
	CodeTokenNotFound          Code = "TOKEN_NOT_FOUND"
	CodeBulkUploadJobNotFound  Code = "BULK_UPLOAD_JOB_NOT_FOUND"
	CodeReferenceNotFound      Code = "REFERENCE_NOT_FOUND"
	CodeUmaNotFound            Code = "UMA_NOT_FOUND"
	CodeAccountNotFound        Code = "ACCOUNT_NOT_FOUND"
	CodeAuthMethodNotFound     Code = "AUTH_METHOD_NOT_FOUND"
	CodeCustomerNotFound       Code = "CUSTOMER_NOT_FOUND"
	CodeDocumentHolderNotFound Code = "DOCUMENT_HOLDER_NOT_FOUND"
	CodePlatformNotFound       Code = "PLATFORM_NOT_FOUND"
	CodeRequestNotFound        Code = "REQUEST_NOT_FOUND"
	CodeSessionNotFound        Code = "SESSION_NOT_FOUND"
	CodeVerificationNotFound   Code = "VERIFICATION_NOT_FOUND"
	CodeMethodNotAllowed       Code = "METHOD_NOT_ALLOWED"
	CodeCustomerDeleted        Code = "CUSTOMER_DELETED"
)

// 409
const (
	CodeConflict                              Code = "CONFLICT"
	CodeTransactionNotPendingPlatformApproval Code = "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL"
	CodeTransactionNotCancellable             Code = "TRANSACTION_NOT_CANCELLABLE"
	CodeUmaAddressExists                      Code = "UMA_ADDRESS_EXISTS"
	CodeScaSessionRequired                    Code = "SCA_SESSION_REQUIRED"
	CodeBeneficiaryTrusted                    Code = "BENEFICIARY_TRUSTED"
	CodeBankAccountValidationPending          Code = "BANK_ACCOUNT_VALIDATION_PENDING"
	CodeInvalidStateTransition                Code = "INVALID_STATE_TRANSITION"
	CodeDocumentAlreadyExists                 Code = "DOCUMENT_ALREADY_EXISTS"
	CodeDuplicateExternalAccount              Code = "DUPLICATE_EXTERNAL_ACCOUNT"
	CodeWalletNotProvisioned                  Code = "WALLET_NOT_PROVISIONED"
	CodeCardAlreadyClosed                     Code = "CARD_ALREADY_CLOSED"
	CodeCardNotMutable                        Code = "CARD_NOT_MUTABLE"
	CodeCardLimitReached                      Code = "CARD_LIMIT_REACHED"
	CodePasskeyAlreadyEnrolled                Code = "PASSKEY_ALREADY_ENROLLED"
)

// Stablecoin codes (the two with the maker's name use the neutral word).
const (
	CodeStablecoinProviderAccountInvalid           Code = "STABLECOIN_PROVIDER_ACCOUNT_INVALID"
	CodeStablecoinProviderAccountRevoked           Code = "STABLECOIN_PROVIDER_ACCOUNT_REVOKED"
	CodeStablecoinProviderAccountSelectionRequired Code = "STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED"
	CodeStablecoinAmountNotRepresentable           Code = "STABLECOIN_AMOUNT_NOT_REPRESENTABLE"
	CodeStablecoinBurnSourceNotSupported           Code = "STABLECOIN_BURN_SOURCE_NOT_SUPPORTED"
	CodeStablecoinExternalAccountLinkFailed        Code = "STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED"
	CodeStablecoinExternalAccountLinkMethodReq     Code = "STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED"
	CodeStablecoinExternalAccountNotLinked         Code = "STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED"
	CodeStablecoinExternalAccountNotSupported      Code = "STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED"
	CodeStablecoinExternalAccountProviderLinkFail  Code = "STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED"
	CodeStablecoinExternalAccountProviderLinkReq   Code = "STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED"
	CodeStablecoinServiceOperationsNotEnabled      Code = "STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED"
	CodeStablecoinNotProvisioned                   Code = "STABLECOIN_NOT_PROVISIONED"
	CodeStablecoinOperationNotSupported            Code = "STABLECOIN_OPERATION_NOT_SUPPORTED"
	CodeStablecoinProviderError                    Code = "STABLECOIN_PROVIDER_ERROR"
	CodeStablecoinProviderSourceNotLinked          Code = "STABLECOIN_PROVIDER_SOURCE_NOT_LINKED"
	CodeStablecoinVerificationFailed               Code = "STABLECOIN_VERIFICATION_FAILED"
	CodeStablecoinProviderAccountNotFound          Code = "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND"
	CodeStablecoinExternalAccountNotFound          Code = "STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND"
	CodeStablecoinNotFound                         Code = "STABLECOIN_NOT_FOUND"
	CodeStablecoinOperationNotFound                Code = "STABLECOIN_OPERATION_NOT_FOUND"
	CodeStablecoinServiceEnablementNotRequestable  Code = "STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE"
	CodeStablecoinSymbolAlreadyExists              Code = "STABLECOIN_SYMBOL_ALREADY_EXISTS"
	CodeStablecoinTokenIdentifierAlreadyExists     Code = "STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS"
)

// 423, 429, 5xx
const (
	CodeAccountLocked      Code = "ACCOUNT_LOCKED"
	CodeRateLimited        Code = "RATE_LIMITED"
	CodeServiceSwitchError Code = "SERVICE_SWITCH_ERROR"
	CodeInternalError      Code = "INTERNAL_ERROR"
	CodeNotImplemented     Code = "NOT_IMPLEMENTED"
	CodeServiceUnavailable Code = "SERVICE_UNAVAILABLE"
)

// Status returns the HTTP status of code in the API (500 for unknown codes).
// It is the one code-to-status table; the HTTP layer uses it.
func (c Code) Status() int {
	if s, ok := CodeStatus[c]; ok {
		return s
	}
	return 500
}

// Codes returns every code the engine can return, in no particular order:
// the keys of CodeStatus, the areas' codes included once their packages
// are initialized.
func Codes() []Code {
	out := make([]Code, 0, len(CodeStatus))
	for c := range CodeStatus {
		out = append(out, c)
	}
	return out
}

// CodeStatus is the one code-to-status table, filled at initialization
// (the kernel's codes here, each area's in its own package) and read-only
// afterwards: writing it later would race with every error written.
var CodeStatus = map[Code]int{}

// init fills CodeStatus with the kernel's codes, by status.
func init() {
	group := func(status int, codes ...Code) {
		for _, c := range codes {
			CodeStatus[c] = status
		}
	}
	group(400, CodeInvalidInput, CodeEndUserTermsVersionNotFound, CodeMissingMandatoryUserInfo, CodeInvalidUmaAddress,
		CodeQuoteRequestFailed, CodeInvalidReceiver, CodeSenderNotAccepted, CodeAmountOutOfRange, CodeInvalidCurrency,
		CodeInvalidTimestamp, CodeInvalidRequestFormat, CodeInvalidBankAccount, CodeSelfPayment, CodeLookupRequestFailed,
		CodeInvalidAmount, CodeWebhookEndpointNotSet, CodeWebhookDeliveryError, CodeTransactionSizeLimitExceeded,
		CodeExternalAccountVerificationReq, CodeInsufficientFunds, CodeQuoteExpired, CodeQuoteRateUnavailable,
		CodeFundingSourceIneligible, CodeEmailOtpCredentialAlreadyExists, CodeSmsOtpCredentialAlreadyExists,
		CodePasskeyCredentialAlreadyExists, CodeCardholderKycNotApproved, CodeInvitationAlreadyClaimed,
		CodeInvitationsNotConfigured, CodeInvitationCancelled, CodeMissingRequiredUmaParameters,
		CodeDocumentRejectedLowQuality, CodeDocumentRejectedDataMismatch, CodeDocumentRejectedExpired,
		CodeDocumentRejectedSuspectedFraud, CodeDocumentRejectedUnsuitable, CodeDocumentRejectedIncomplete)
	group(401, CodeUnauthorized, CodeInvalidSignature, CodeWalletSignatureMissing, CodeWalletSignatureMalformed,
		CodeWalletSignatureBodyMismatch, CodeWalletSignatureInvalid, CodeRequestIDMissing)
	group(403, CodeForbidden, CodeUserNotReady, CodeCounterpartyNotAllowed, CodeVelocityLimitExceeded, CodeEndUserTermsNotAccepted)
	group(404, CodeNotFound, CodeTransactionNotFound, CodeInvitationNotFound, CodeUserNotFound, CodeQuoteNotFound,
		CodeLookupRequestNotFound, CodeTokenNotFound, CodeBulkUploadJobNotFound, CodeReferenceNotFound, CodeUmaNotFound,
		CodeAccountNotFound, CodeAuthMethodNotFound, CodeCustomerNotFound, CodeDocumentHolderNotFound,
		CodePlatformNotFound, CodeRequestNotFound, CodeSessionNotFound, CodeVerificationNotFound)
	group(405, CodeMethodNotAllowed)
	group(409, CodeConflict, CodeTransactionNotPendingPlatformApproval, CodeTransactionNotCancellable,
		CodeUmaAddressExists, CodeScaSessionRequired, CodeBeneficiaryTrusted, CodeBankAccountValidationPending,
		CodeInvalidStateTransition, CodeDocumentAlreadyExists, CodeDuplicateExternalAccount, CodeWalletNotProvisioned,
		CodeCardAlreadyClosed, CodeCardNotMutable, CodeCardLimitReached, CodePasskeyAlreadyEnrolled)
	group(400, CodeStablecoinProviderAccountInvalid, CodeStablecoinProviderAccountRevoked,
		CodeStablecoinProviderAccountSelectionRequired, CodeStablecoinAmountNotRepresentable,
		CodeStablecoinBurnSourceNotSupported, CodeStablecoinExternalAccountLinkFailed,
		CodeStablecoinExternalAccountLinkMethodReq, CodeStablecoinExternalAccountNotLinked,
		CodeStablecoinExternalAccountNotSupported, CodeStablecoinExternalAccountProviderLinkFail,
		CodeStablecoinExternalAccountProviderLinkReq, CodeStablecoinServiceOperationsNotEnabled,
		CodeStablecoinNotProvisioned, CodeStablecoinOperationNotSupported, CodeStablecoinProviderError,
		CodeStablecoinProviderSourceNotLinked, CodeStablecoinVerificationFailed)
	group(404, CodeStablecoinProviderAccountNotFound, CodeStablecoinExternalAccountNotFound,
		CodeStablecoinNotFound, CodeStablecoinOperationNotFound)
	group(409, CodeStablecoinServiceEnablementNotRequestable, CodeStablecoinSymbolAlreadyExists,
		CodeStablecoinTokenIdentifierAlreadyExists)
	group(410, CodeCustomerDeleted)
	group(413, CodeBodyTooLarge)
	group(415, CodeUnsupportedMediaType)
	group(423, CodeAccountLocked)
	group(429, CodeRateLimited)
	group(500, CodeServiceSwitchError, CodeInternalError)
	group(501, CodeNotImplemented)
	group(503, CodeServiceUnavailable)
}
