package oauth

import (
	"time"

	"github.com/ory/fosite"
)

// Session is the fosite session of a sign-in connection: the grant the
// tokens belong to and who it acts as. It is stored with every token.
type Session struct {
	GrantID     string                         `json:"grant_id"`
	WorkspaceID string                         `json:"workspace_id"`
	UserID      string                         `json:"user_id"`
	ExpiresAt   map[fosite.TokenType]time.Time `json:"expires_at"`
}

var _ fosite.Session = (*Session)(nil)

// SetExpiresAt implements fosite.Session.
func (s *Session) SetExpiresAt(key fosite.TokenType, exp time.Time) {
	if s.ExpiresAt == nil {
		s.ExpiresAt = map[fosite.TokenType]time.Time{}
	}
	s.ExpiresAt[key] = exp
}

// GetExpiresAt implements fosite.Session.
func (s *Session) GetExpiresAt(key fosite.TokenType) time.Time { return s.ExpiresAt[key] }

// GetUsername implements fosite.Session.
func (s *Session) GetUsername() string { return s.UserID }

// GetSubject implements fosite.Session.
func (s *Session) GetSubject() string { return s.UserID }

// Clone implements fosite.Session.
func (s *Session) Clone() fosite.Session {
	c := *s
	c.ExpiresAt = make(map[fosite.TokenType]time.Time, len(s.ExpiresAt))
	for k, v := range s.ExpiresAt {
		c.ExpiresAt[k] = v
	}
	return &c
}

// sessionOf is the request's Session (an empty one for any other session type).
func sessionOf(r fosite.Requester) *Session {
	if s, ok := r.GetSession().(*Session); ok {
		return s
	}
	return &Session{}
}
