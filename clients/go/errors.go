// Errors of the Nen client: every failure the transport reports is a *Error with a stable Code
// from the repository's ERROR_CODES.md (the same codes @nen/client reports).
//
// Pitfalls:
//   - A server's protocol error (header nen-error) is unauthenticated: its code is trusted only
//     when the HTTP status is the one the catalog lists for it, and it is a hint, never data.
//   - An unauthenticated error never proves the handler did not run (PROTOCOL.md §7): after one
//     was received for a request that was sent, the client reports NEN_OUTCOME_UNKNOWN unless its
//     one retry (§7.1) gets an authenticated answer.

package nen

import (
	"errors"
	"fmt"
	"net/http"
)

// Codes raised by the client itself (ERROR_CODES.md, "Raised by the client only").
const (
	CodeHandshakeFailed         = "NEN_HANDSHAKE_FAILED"
	CodeBadServerKey            = "NEN_BAD_SERVER_KEY"
	CodeResponseUnauthenticated = "NEN_RESPONSE_UNAUTHENTICATED"
	CodeStreamTruncated         = "NEN_STREAM_TRUNCATED"
	CodeStreamInvalid           = "NEN_STREAM_INVALID"
	CodeTimeout                 = "NEN_TIMEOUT"
	CodeAborted                 = "NEN_ABORTED"
	CodeBadInput                = "NEN_BAD_INPUT"
	CodeOutcomeUnknown          = "NEN_OUTCOME_UNKNOWN"
	CodeRetryCommitted          = "NEN_RETRY_COMMITTED"
	CodeRetryUnknown            = "NEN_RETRY_UNKNOWN"
	CodeUnknownKeyID            = "NEN_UNKNOWN_KEY_ID"
	CodeProtocolError           = "NEN_PROTOCOL_ERROR"
)

// Error is the error type of this package. Status is the HTTP status of a server-reported
// protocol error (0 otherwise); Cause, when set, is returned by Unwrap.
type Error struct {
	Code    string
	Status  int
	Message string
	Cause   error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("nen: %s [%s]: %v", e.Message, e.Code, e.Cause)
	}
	return fmt.Sprintf("nen: %s [%s]", e.Message, e.Code)
}

// Unwrap returns the underlying error (NEN_OUTCOME_UNKNOWN's cause, a timeout's context error).
func (e *Error) Unwrap() error { return e.Cause }

func newError(code, msg string, cause error) *Error {
	return &Error{Code: code, Message: msg, Cause: cause}
}

// recovery is what the client does after a server-reported code (the catalog's "client behaviour").
type recovery int

const (
	recoverFail      recovery = iota
	recoverRetry              // one new handshake and one retry naming the original
	recoverRetryWait          // the same after a backoff (NEN_AUTH_FAILED)
)

type wireCode struct {
	status int
	action recovery
}

// wireCodes is the catalog of codes a server sends (ERROR_CODES.md, "Sent by the server").
var wireCodes = map[string]wireCode{
	"NEN_MALFORMED":           {400, recoverFail},
	"NEN_UNSUPPORTED_VERSION": {400, recoverFail},
	"NEN_UNSUPPORTED_KEM":     {400, recoverFail},
	"NEN_UNKNOWN_KEY_ID":      {400, recoverFail},
	"NEN_NOT_ENCRYPTED":       {400, recoverFail},
	"NEN_BAD_JSON":            {400, recoverFail},
	"NEN_AUTH_FAILED":         {401, recoverRetryWait},
	"NEN_SESSION_UNKNOWN":     {401, recoverRetry},
	"NEN_SESSION_EXPIRED":     {401, recoverRetry},
	"NEN_TIMESTAMP":           {401, recoverRetry},
	"NEN_REPLAY":              {409, recoverFail},
	"NEN_RETRY_COMMITTED":     {409, recoverFail},
	"NEN_RETRY_UNKNOWN":       {409, recoverFail},
	"NEN_STREAM_TRUNCATED":    {400, recoverFail},
	"NEN_TOO_LARGE":           {413, recoverFail},
	"NEN_CONTENT_TYPE":        {415, recoverFail},
	"NEN_RATE_LIMITED":        {429, recoverFail},
	"NEN_NOT_FOUND":           {404, recoverFail},
	"NEN_METHOD_NOT_ALLOWED":  {405, recoverFail},
	"NEN_INTERNAL":            {500, recoverFail},
	"NEN_STORE_UNAVAILABLE":   {503, recoverFail},
	// OHTTP: the key id is not live (a rotation); a fetched, pinned config is refetched once
	"NEN_OHTTP_KEY_UNKNOWN": {400, recoverFail},
}

// serverError turns a response without a valid envelope into a typed hint: the nen-error code
// when its status matches the catalog, else NEN_RESPONSE_UNAUTHENTICATED.
func serverError(res *http.Response, detail string) *Error {
	code := res.Header.Get("nen-error")
	if w, ok := wireCodes[code]; ok && w.status == res.StatusCode {
		return &Error{Code: code, Status: res.StatusCode, Message: "the server refused the request (unauthenticated hint)"}
	}
	return newError(CodeResponseUnauthenticated, detail, nil)
}

// recoveryOf is the catalog's client action for err (recoverFail for anything not server-reported).
func recoveryOf(err error) recovery {
	var e *Error
	if errors.As(err, &e) && e.Status != 0 {
		if w, ok := wireCodes[e.Code]; ok && w.status == e.Status {
			return w.action
		}
	}
	return recoverFail
}

// CodeOf returns the Nen code of err ("" when err is not, and does not wrap, a *Error).
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
