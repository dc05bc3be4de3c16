package payments

// The 409 codes of embedded-wallet contact changes (spec 7).
const (
	CodeEmailOtpEmailAlreadyExists     Code = "EMAIL_OTP_EMAIL_ALREADY_EXISTS"
	CodeEmailOtpCredentialSetChanged   Code = "EMAIL_OTP_CREDENTIAL_SET_CHANGED"
	CodeSmsOtpCredentialSetChanged     Code = "SMS_OTP_CREDENTIAL_SET_CHANGED"
	CodeSmsOtpPhoneNumberAlreadyExists Code = "SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS"
)

func init() {
	for _, c := range []Code{CodeEmailOtpEmailAlreadyExists, CodeEmailOtpCredentialSetChanged,
		CodeSmsOtpCredentialSetChanged, CodeSmsOtpPhoneNumberAlreadyExists} {
		codeStatus[c] = 409
	}
}
