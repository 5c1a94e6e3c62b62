;;; eglot_test.el --- batch test: easyflow.el + Eglot + easyflow-ls  -*- lexical-binding: t; -*-
;; Run by editors/emacs/test/run.sh. Environment: EASYFLOW_LS, EASYFLOW_ROOT.

(require 'package)
;; Debian's elpa-* packages (elpa-eglot on Emacs 28; Eglot is built into 29+),
;; which -Q would otherwise not activate.
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(unless (require 'eglot nil t)
  (princ (format "Eglot is not available in Emacs %s (Debian 12: apt-get install elpa-eglot)\n"
                 emacs-version))
  (kill-emacs 1))
(require 'flymake)

(defvar root (file-name-as-directory (getenv "EASYFLOW_ROOT")))
(defvar passed 0)
(defvar diagnostics-seen nil)

(defun fail (fmt &rest args)
  (princ (format "FAIL: %s\n%d passed, 1 failed\n" (apply #'format fmt args) passed))
  (kill-emacs 1))

(defun ok (name)
  (setq passed (1+ passed))
  (princ (format "ok - %s\n" name)))

(defun wait-for (seconds predicate)
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall predicate)))

;; Record the diagnostics the server publishes, whatever flymake does in batch.
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (when (eq method 'textDocument/publishDiagnostics)
                (push (plist-get params :diagnostics) diagnostics-seen))))

(defun documented-setup ()
  "The setup docs/editors.md gives users: its block `elisp example=emacs'."
  (with-temp-buffer
    (insert-file-contents (expand-file-name "docs/editors.md" root))
    (goto-char (point-min))
    (unless (re-search-forward "^```elisp example=emacs\n" nil t)
      (fail "docs/editors.md has no block `elisp example=emacs'"))
    (let ((start (point)))
      (re-search-forward "^```$")
      (buffer-substring-no-properties start (match-beginning 0)))))

;; Run as written: only its placeholder for the clone is replaced, and the
;; server is found as `easyflow-ls' on the PATH, as an installed one is.
(let ((server (getenv "EASYFLOW_LS")))
  (unless (equal (file-name-nondirectory server) "easyflow-ls")
    (fail "the server is not named easyflow-ls: %s" server))
  (push (file-name-directory server) exec-path)
  (setenv "PATH" (concat (file-name-directory server) path-separator (getenv "PATH"))))
(with-temp-buffer
  (insert (replace-regexp-in-string "/path/to/easyflow-ls/" root (documented-setup) t t))
  (eval-buffer))
(ok "the setup of docs/editors.md loads")

(princ (format "# Emacs %s, Eglot from %s\n" emacs-version (locate-library "eglot")))

(find-file (expand-file-name "tests/data/parser/corpus/sweep-missing-comma.flow" root))
(unless (eq major-mode 'easyflow-mode) (fail "major mode %s" major-mode))
(ok "*.flow opens in easyflow-mode")
(unless (memq #'eglot-ensure easyflow-mode-hook) (fail "eglot-ensure not on the hook"))
;; eglot-ensure connects from post-command-hook, which batch mode never runs.
(run-hooks 'post-command-hook)
(unless (wait-for 20 (lambda () (eglot-current-server))) (fail "Eglot did not connect"))
(ok "Eglot connected to easyflow-ls")
(unless (wait-for 20 (lambda ()
                       (cl-some (lambda (ds) (cl-some (lambda (d) (equal (plist-get d :code) "E0100")) ds))
                                diagnostics-seen)))
  (fail "no E0100 diagnostic; got %S" diagnostics-seen))
(ok "diagnostics arrive (E0100)")

(find-file (expand-file-name "tests/data/topology/all-fields.topology" root))
(unless (eq major-mode 'easyflow-topology-mode) (fail "major mode %s" major-mode))
(run-hooks 'post-command-hook)
(unless (wait-for 20 (lambda () (eglot-current-server))) (fail "Eglot did not manage the topology"))
(ok "*.topology opens in easyflow-topology-mode, managed by Eglot")

(ignore-errors (eglot-shutdown (eglot-current-server)))
(princ (format "%d passed, 0 failed\n" passed))
(kill-emacs 0)
