package wallets

import "github.com/paygrid/payments/internal/engine"

// The 409 codes of embedded-wallet contact changes (spec 7).
const (
	CodeEmailOtpEmailAlreadyExists     engine.Code = "EMAIL_OTP_EMAIL_ALREADY_EXISTS"
	CodeEmailOtpCredentialSetChanged   engine.Code = "EMAIL_OTP_CREDENTIAL_SET_CHANGED"
	CodeSmsOtpCredentialSetChanged     engine.Code = "SMS_OTP_CREDENTIAL_SET_CHANGED"
	CodeSmsOtpPhoneNumberAlreadyExists engine.Code = "SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS"
)

func init() {
	for _, c := range []engine.Code{CodeEmailOtpEmailAlreadyExists, CodeEmailOtpCredentialSetChanged,
		CodeSmsOtpCredentialSetChanged, CodeSmsOtpPhoneNumberAlreadyExists} {
		engine.CodeStatus[c] = 409
	}
}
