package web

import (
	"context"
	"net/http"
)

// homeData is the content of the home page.
type homeData struct {
	// APIBaseURL, MCPURL and ChatGPTMCPURL are where agents connect.
	APIBaseURL, MCPURL, ChatGPTMCPURL string
}

// home shows the workspace, what waits for the person, and how agents connect.
func (h *handler) home(w http.ResponseWriter, r *http.Request, s session) {
	h.show(w, r, s, "home", h.homeView)
}

func (h *handler) homeView(context.Context, session) (view, error) {
	cfg := h.app.Config
	return view{Nav: "home", Data: homeData{
		APIBaseURL: cfg.BaseURL(), MCPURL: cfg.MCPURL(), ChatGPTMCPURL: cfg.ChatGPTMCPURL(),
	}}, nil
}
