// The authenticated session actions of PROTOCOL.md §8 on the transport's current session:
// Rotate (rekey to the next epoch without a KEM), Terminate (the server deletes the session) and
// Status (the server's view of it). Each is an ordinary sealed POST to {sessionPath}/{action}.
//
// Pitfalls:
//   - The transport moves to epoch n+1 only after the server's sealed {"epoch": n+1}; sequence
//     numbers continue across epochs (the same sequencer), so no (key, nonce) pair repeats.
//   - These calls are not retried: an unauthenticated 401-class answer is returned as it is.

package nen

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
)

// next is the session under epoch n+1: S_{n+1} = HKDF-Expand(S_n, "nen/1 rekey", 32).
func (s *session) next() (*session, error) {
	secret := nextEpochSecret(s.secret)
	keys, err := newEpochKeys(secret)
	if err != nil {
		return nil, err
	}
	n := *s
	n.epoch, n.keys, n.secret = s.epoch+1, keys, secret
	return &n, nil
}

// replace installs n in place of s if s is still the current session.
func (m *sessions) replace(s, n *session) {
	m.mu.Lock()
	if m.cur == s {
		m.cur = n
	}
	m.mu.Unlock()
}

// sessionCall sends one sealed POST to the action and decodes its sealed JSON answer.
func (t *Transport) sessionCall(ctx context.Context, action string) (*session, map[string]any, error) {
	s := t.sessions.current()
	t.mu.Lock()
	origin := t.origin
	t.mu.Unlock()
	if s == nil || origin == "" {
		return nil, nil, newError(CodeBadInput, "no session to "+action, nil)
	}
	u, err := url.Parse(origin + t.cfg.sessionPath + "/" + action)
	if err != nil {
		return nil, nil, newError(CodeBadInput, "bad session path", err)
	}
	req := (&http.Request{Method: "POST", URL: u, Header: http.Header{}, Host: u.Host}).WithContext(ctx)
	p := &prepared{method: "POST", path: preparePath(u)}
	res, _, err := t.attempt(ctx, req, p, s, nil)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	var v map[string]any
	b, _ := io.ReadAll(res.Body) // already authenticated and in memory
	if res.StatusCode != http.StatusOK || json.Unmarshal(b, &v) != nil {
		return nil, nil, &Error{Code: CodeProtocolError, Status: res.StatusCode, Message: "the " + action + " answer is not the sealed JSON object of PROTOCOL.md §8"}
	}
	return s, v, nil
}

// Rotate rekeys the current session to its next epoch and returns it.
func (t *Transport) Rotate(ctx context.Context) (SessionInfo, error) {
	s, v, err := t.sessionCall(ctx, "rotate")
	if err != nil {
		return SessionInfo{}, err
	}
	if e, ok := v["epoch"].(float64); !ok || e != float64(s.epoch)+1 {
		return SessionInfo{}, newError(CodeResponseUnauthenticated, "rotate answered with an unexpected epoch", nil)
	}
	n, err := s.next()
	if err != nil {
		return SessionInfo{}, err
	}
	t.sessions.replace(s, n)
	return n.info(), nil
}

// Terminate asks the server to delete the current session and drops it here in any case.
func (t *Transport) Terminate(ctx context.Context) error {
	s := t.sessions.current()
	if s == nil {
		return nil
	}
	defer t.sessions.invalidate(s)
	_, _, err := t.sessionCall(ctx, "terminate")
	return err
}

// Status returns the server's sealed view of the current session (PROTOCOL.md §8: id, epoch,
// expiresAt, idleTimeoutSeconds, lastSeenAt, kem, keyId, serverTime).
func (t *Transport) Status(ctx context.Context) (map[string]any, error) {
	_, v, err := t.sessionCall(ctx, "status")
	return v, err
}
