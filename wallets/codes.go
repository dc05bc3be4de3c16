package wallets

import "github.com/paygrid/payments/internal/engine"

// The 409 codes of embedded-wallet contact changes. They are the
// area's own, registered with the area like the codes below.
const (
	// CodeEmailOtpEmailAlreadyExists refuses an email already tied to an
	// EMAIL_OTP credential.
	CodeEmailOtpEmailAlreadyExists engine.Code = "EMAIL_OTP_EMAIL_ALREADY_EXISTS"
	// CodeEmailOtpCredentialSetChanged refuses a contact change's signed
	// retry when the EMAIL_OTP credentials tied to the old email changed
	// since its challenge; the client starts again.
	CodeEmailOtpCredentialSetChanged engine.Code = "EMAIL_OTP_CREDENTIAL_SET_CHANGED"
	// CodeSmsOtpCredentialSetChanged is CodeEmailOtpCredentialSetChanged
	// for SMS_OTP credentials and the phone number.
	CodeSmsOtpCredentialSetChanged engine.Code = "SMS_OTP_CREDENTIAL_SET_CHANGED"
	// CodeSmsOtpPhoneNumberAlreadyExists refuses a phone number already
	// tied to an SMS_OTP credential.
	CodeSmsOtpPhoneNumberAlreadyExists engine.Code = "SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS"
)

// Codes of embedded wallets that only this area returns. The kernel's code
// table learns their HTTP status from the area's registration (codes).
const (
	CodeWalletSignatureMalformed        engine.Code = "WALLET_SIGNATURE_MALFORMED"
	CodeWalletSignatureBodyMismatch     engine.Code = "WALLET_SIGNATURE_BODY_MISMATCH"
	CodeWalletSignatureInvalid          engine.Code = "WALLET_SIGNATURE_INVALID"
	CodeRequestIDMissing                engine.Code = "REQUEST_ID_MISSING"
	CodeAuthMethodNotFound              engine.Code = "AUTH_METHOD_NOT_FOUND"
	CodeSessionNotFound                 engine.Code = "SESSION_NOT_FOUND"
	CodeEmailOtpCredentialAlreadyExists engine.Code = "EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS"
	CodeSmsOtpCredentialAlreadyExists   engine.Code = "SMS_OTP_CREDENTIAL_ALREADY_EXISTS"
	CodePasskeyCredentialAlreadyExists  engine.Code = "PASSKEY_CREDENTIAL_ALREADY_EXISTS"
	CodeWalletNotProvisioned            engine.Code = "WALLET_NOT_PROVISIONED"
)

// codes are the area's codes with their HTTP status, registered with the
// area (AreaDef.Codes) so that Code.Status and Codes know them.
var codes = map[engine.Code]int{
	CodeEmailOtpEmailAlreadyExists:      409,
	CodeEmailOtpCredentialSetChanged:    409,
	CodeSmsOtpCredentialSetChanged:      409,
	CodeSmsOtpPhoneNumberAlreadyExists:  409,
	CodeWalletSignatureMalformed:        401,
	CodeWalletSignatureBodyMismatch:     401,
	CodeWalletSignatureInvalid:          401,
	CodeRequestIDMissing:                401,
	CodeAuthMethodNotFound:              404,
	CodeSessionNotFound:                 404,
	CodeEmailOtpCredentialAlreadyExists: 400,
	CodeSmsOtpCredentialAlreadyExists:   400,
	CodePasskeyCredentialAlreadyExists:  400,
	CodeWalletNotProvisioned:            409,
}
