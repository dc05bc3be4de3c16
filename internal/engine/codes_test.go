package engine_test

import (
	"errors"
	"testing"

	"github.com/paygrid/payments"
	"github.com/stretchr/testify/assert"
)

func TestCodes_EveryCodeHasAStatus(t *testing.T) {
	for _, c := range payments.Codes() {
		s := c.Status()
		assert.True(t, s >= 400 && s < 600, "%s -> %d", c, s)
	}
	assert.Equal(t, 500, payments.Code("NO_SUCH_CODE").Status())
	assert.Equal(t, 409, payments.CodeConflict.Status())
	assert.Equal(t, payments.CodeNotFound, payments.CodeOf(payments.ErrNotFound))
	assert.Equal(t, payments.CodeInternalError, payments.CodeOf(errors.New("boom")))
	assert.Equal(t, "an internal error occurred", payments.MessageOf(errors.New("secret internals")))
}
