package platform_test

import (
	"strings"
	"testing"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/internal/enginetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEngine_Tokens(t *testing.T) {
	e := enginetest.NewEnv(t)
	t.Run("ErrInvalidInput", func(t *testing.T) {
		_, err := e.Eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Permissions: []payments.Permission{"VIEW", "ROOT", "VIEW"}})
		enginetest.RequireCode(t, err, payments.CodeInvalidInput, "name", "permissions.1", "permissions.2")
	})
	tok, err := e.Eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: "ops", Permissions: []payments.Permission{payments.PermView}})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(tok.ID, "Token:"))
	assert.Len(t, tok.ClientID, 32)
	assert.NotEmpty(t, tok.ClientSecret)

	got, err := e.Eng.Platform.Authenticate(ctx, tok.ClientID, tok.ClientSecret)
	require.NoError(t, err)
	assert.Equal(t, tok.ID, got.ID)
	_, err = e.Eng.Platform.Authenticate(ctx, tok.ID, tok.ClientSecret)
	require.NoError(t, err, "the token id is accepted as the Basic user too")
	for _, c := range [][2]string{{tok.ClientID, "wrong"}, {"nobody", tok.ClientSecret}, {"", ""}, {tok.ClientID, ""}} {
		_, err = e.Eng.Platform.Authenticate(ctx, c[0], c[1])
		enginetest.RequireCode(t, err, payments.CodeUnauthorized)
	}

	read, err := e.Eng.Platform.Token(ctx, tok.ID)
	require.NoError(t, err)
	assert.Equal(t, tok.Token, *read)
	require.NoError(t, e.Eng.Platform.DeleteToken(ctx, tok.ID))
	_, err = e.Eng.Platform.Authenticate(ctx, tok.ClientID, tok.ClientSecret)
	enginetest.RequireCode(t, err, payments.CodeUnauthorized)
	_, err = e.Eng.Platform.Token(ctx, tok.ID)
	enginetest.RequireCode(t, err, payments.CodeTokenNotFound)
	enginetest.RequireCode(t, e.Eng.Platform.DeleteToken(ctx, tok.ID), payments.CodeTokenNotFound)
}

func TestEngine_ListTokens_Pagination(t *testing.T) {
	e := enginetest.NewEnv(t)
	for i := range 45 {
		_, err := e.Eng.Platform.CreateToken(ctx, payments.CreateTokenRequest{Name: []string{"a", "b", "c"}[i%3], Permissions: []payments.Permission{payments.PermView}})
		require.NoError(t, err)
	}
	for _, desc := range []bool{false, true} {
		seen := map[string]bool{}
		var last string
		p := payments.ListParams{Desc: desc}
		pages := 0
		for {
			page, err := e.Eng.Platform.ListTokens(ctx, payments.TokenFilter{}, p)
			require.NoError(t, err)
			assert.Nil(t, page.TotalCount, "a list longer than its first page has no count")
			for _, tk := range page.Data {
				assert.False(t, seen[tk.ID], "duplicate %s", tk.ID)
				seen[tk.ID] = true
				if last != "" {
					assert.Equal(t, desc, tk.ID < last, "order")
				}
				last = tk.ID
			}
			pages++
			if !page.HasMore {
				assert.Empty(t, page.NextCursor)
				break
			}
			p.Cursor = page.NextCursor
		}
		assert.Len(t, seen, 45)
		assert.Equal(t, 3, pages)
	}
	page, err := e.Eng.Platform.ListTokens(ctx, payments.TokenFilter{Name: "b"}, payments.ListParams{Limit: 100})
	require.NoError(t, err)
	require.NotNil(t, page.TotalCount, "a first page holding every match counts them")
	assert.Equal(t, 15, *page.TotalCount)
	assert.False(t, page.HasMore)

	_, err = e.Eng.Platform.ListTokens(ctx, payments.TokenFilter{}, payments.ListParams{Limit: 101})
	enginetest.RequireCode(t, err, payments.CodeInvalidInput, "limit")
	_, err = e.Eng.Platform.ListTokens(ctx, payments.TokenFilter{}, payments.ListParams{Cursor: "garbage!"})
	enginetest.RequireCode(t, err, payments.CodeInvalidInput, "cursor")
}
