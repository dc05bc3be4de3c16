package wallets

import "github.com/paygrid/payments/internal/engine"

// The 409 codes of embedded-wallet contact changes. They are the
// area's own: the kernel's code table (engine.CodeStatus) learns their
// status when this package is initialized.
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

// init adds the area's codes to the kernel's code-to-status table, which
// the HTTP layer's error writer reads.
func init() {
	for _, c := range []engine.Code{CodeEmailOtpEmailAlreadyExists, CodeEmailOtpCredentialSetChanged,
		CodeSmsOtpCredentialSetChanged, CodeSmsOtpPhoneNumberAlreadyExists} {
		engine.CodeStatus[c] = 409
	}
}
