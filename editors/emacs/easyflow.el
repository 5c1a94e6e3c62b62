;;; easyflow.el --- EasyFlow workflows and topologies, with easyflow-ls through Eglot  -*- lexical-binding: t; -*-

;; Major modes for EasyFlow (*.flow) and EasyFlow topology (*.topology)
;; files, and their registration with Eglot, which starts `easyflow-ls --stdio'.
;; Eglot is built into Emacs 29+; on Emacs 28 install it first (Debian 12:
;; `apt-get install elpa-eglot', or `M-x package-install RET eglot' from GNU ELPA).
;;
;; Usage: (load "/path/to/editors/emacs/easyflow.el")
;; Settings (the `easyflow' section) go in `eglot-workspace-configuration',
;; e.g. in .dir-locals.el:
;;   ((nil . ((eglot-workspace-configuration
;;             . (:easyflow (:topology "cluster/site.topology"))))))

;;; Code:

(defconst easyflow--keywords
  '("flow" "require" "step" "sweep" "runs" "after" "on" "pre" "post"))

(defvar easyflow-mode-syntax-table
  (let ((table (make-syntax-table)))
    ;; `//' line comments and `/* */' block comments.
    (modify-syntax-entry ?/ ". 124b" table)
    (modify-syntax-entry ?* ". 23" table)
    (modify-syntax-entry ?\n "> b" table)
    (modify-syntax-entry ?_ "w" table)
    (modify-syntax-entry ?@ "'" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    table)
  "Syntax table of `easyflow-mode'.")

(defvar easyflow-font-lock-keywords
  `((,(regexp-opt easyflow--keywords 'symbols) . font-lock-keyword-face)
    ("\\_<\\(true\\|false\\)\\_>" . font-lock-constant-face)
    ("@[A-Za-z_][A-Za-z0-9_]*" . font-lock-constant-face)
    ("\\_<step\\_>[ \t]+\\([A-Za-z_][A-Za-z0-9_]*\\)" 1 font-lock-function-name-face)
    ("\\_<runs\\_>[ \t]+\\([A-Za-z_][A-Za-z0-9_.]*\\)" 1 font-lock-type-face)
    ("\\_<\\(app\\|exec\\)\\_>[ \t]*:" 1 font-lock-builtin-face)
    ("\\_<\\([A-Za-z_][A-Za-z0-9_]*\\)[ \t]*\\(?:=\\|<-\\)" 1 font-lock-variable-name-face))
  "Highlighting of `easyflow-mode' (the server's semantic tokens are not used by Eglot 1.x).")

;;;###autoload
(define-derived-mode easyflow-mode prog-mode "EasyFlow"
  "Major mode for EasyFlow workflows (CLAVIRE)."
  :syntax-table easyflow-mode-syntax-table
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "\\(?://+\\|/\\*+\\)\\s-*")
  (setq-local font-lock-defaults '(easyflow-font-lock-keywords)))

(defvar easyflow-topology-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?/ ". 12" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?_ "w" table)
    table)
  "Syntax table of `easyflow-topology-mode'.")

;;;###autoload
(define-derived-mode easyflow-topology-mode prog-mode "EasyFlow-Topology"
  "Major mode for EasyFlow topologies (GPI-Space worker descriptions)."
  :syntax-table easyflow-topology-mode-syntax-table
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local font-lock-defaults
              '((("[#:x,/][0-9]+" . font-lock-constant-face)
                 ("[A-Za-z_][A-Za-z0-9_]*" . font-lock-type-face)))))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.flow\\'" . easyflow-mode))
;;;###autoload
(add-to-list 'auto-mode-alist '("\\.topology\\'" . easyflow-topology-mode))

(defvar easyflow-ls-program '("easyflow-ls" "--stdio")
  "The command that starts the EasyFlow language server.")

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               `((easyflow-mode easyflow-topology-mode) . ,easyflow-ls-program)))

(add-hook 'easyflow-mode-hook #'eglot-ensure)
(add-hook 'easyflow-topology-mode-hook #'eglot-ensure)

(provide 'easyflow)
;;; easyflow.el ends here
