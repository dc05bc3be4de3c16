package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun_Trigger: the server triggers events on demand: GET
// /sandbox/trigger lists the types, POST runs one's flow and answers the
// records made and the event's id (the server keeps its event history for
// the dashboard); an unknown type is 400 naming eventType.
func TestRun_Trigger(t *testing.T) {
	base, _, _ := startServer(t)
	const cred = "limits-client:limits-secret-0123456789"
	status, list := call(t, cred, "GET", base+"/sandbox/trigger", "")
	require.Equal(t, 200, status, "%v", list)
	assert.Contains(t, list["eventTypes"], "OUTGOING_PAYMENT.COMPLETED")
	status, got := call(t, cred, "POST", base+"/sandbox/trigger", `{"eventType":"OUTGOING_PAYMENT.COMPLETED"}`)
	require.Equal(t, 200, status, "%v", got)
	assert.Equal(t, "OUTGOING_PAYMENT.COMPLETED", got["eventType"])
	assert.NotEmpty(t, got["records"])
	require.Len(t, got["eventIds"], 1, "%v", got)
	status, bad := call(t, cred, "POST", base+"/sandbox/trigger", `{"eventType":"NOPE"}`)
	assert.Equal(t, 400, status)
	assert.Equal(t, "INVALID_INPUT", bad["code"])
	assert.Equal(t, "eventType", bad["details"].(map[string]any)["errors"].([]any)[0].(map[string]any)["field"])
}
