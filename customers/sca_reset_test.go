package customers_test

import (
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/paygrid/payments/storage/memstore"
)

// Outside the sandbox a 2FA reset cannot pass its liveness check on the
// clock: with no liveness provider the engine refuses to start or complete
// one (NOT_IMPLEMENTED) instead of replacing a customer's factor.
func TestSCA_ResetNeedsTheSandbox(t *testing.T) {
	eng, err := payments.New(payments.Config{Store: memstore.New()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	_, err = eng.SCA.StartReset(ctx, "Customer:x", "SMS_OTP")
	enginetest.RequireCode(t, err, payments.CodeNotImplemented)
	err = eng.SCA.CompleteReset(ctx, "Customer:x", "ScaReset:x", &payments.Mobile{CountryCode: "+49", Number: "15112345678"})
	enginetest.RequireCode(t, err, payments.CodeNotImplemented)
}
