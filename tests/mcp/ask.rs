//! The ask flow with a client that declares elicitation: the user sees the findings
//! (rule, span, reason) and only an explicit approval runs the command, once.
//! Decline, cancel, `approve: false`, garbage and an error all leave it not run.

use super::*;
use rmcp::ErrorData;
use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
    Implementation,
};
use rmcp::service::RequestContext;
use std::sync::{Arc, Mutex};

/// How the test's user answers.
#[derive(Clone, Copy, Debug)]
enum Answer {
    Approve,
    ApproveFalse,
    Decline,
    Cancel,
    Garbage,
    NoContent,
    Error,
}

/// A client that can be asked; it records every message it was shown.
#[derive(Clone)]
struct User {
    answer: Answer,
    shown: Arc<Mutex<Vec<String>>>,
}

impl rmcp::ClientHandler for User {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let message = match &request {
            ElicitRequestParams::FormElicitationParams { message, .. } => message.clone(),
            _ => "not a form".into(),
        };
        let schema = serde_json::to_value(&request).unwrap_or_default();
        self.shown
            .lock()
            .expect("lock")
            .push(format!("{message}\n{schema}"));
        let accept = |content: Value| {
            let mut result = ElicitResult::new(ElicitationAction::Accept);
            result.content = Some(content);
            result
        };
        match self.answer {
            Answer::Approve => Ok(accept(json!({"approve": true}))),
            Answer::ApproveFalse => Ok(accept(json!({"approve": false}))),
            Answer::Garbage => Ok(accept(json!({"approve": "yes please"}))),
            Answer::NoContent => Ok(ElicitResult::new(ElicitationAction::Accept)),
            Answer::Decline => Ok(ElicitResult::new(ElicitationAction::Decline)),
            Answer::Cancel => Ok(ElicitResult::new(ElicitationAction::Cancel)),
            Answer::Error => Err(ErrorData::internal_error("the user's UI crashed", None)),
        }
    }

    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {}})).expect("capabilities");
        ClientConfig::new(capabilities, Implementation::new("asking-test", "0"))
    }
}

async fn session(tag: &str, answer: Answer) -> (PathBuf, User, RunningService<RoleClient, User>) {
    let root = fresh_project(tag);
    std::fs::write(root.join("victim.txt"), "keep").expect("victim");
    let user = User {
        answer,
        shown: Arc::default(),
    };
    let client = serve_client(user.clone(), &root, &[]).await;
    (root, user, client)
}

#[tokio::test]
async fn an_approved_ask_runs_once_and_the_user_saw_the_findings() {
    let (root, user, client) = session("ask-yes", Answer::Approve).await;
    let result = call(
        &client,
        "run_command",
        json!({"command": "rm victim.txt && echo removed", "description": "remove the victim"}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert_eq!(text_of(&result), "removed\n");
    assert!(!root.join("victim.txt").exists());
    let shown = user.shown.lock().expect("lock").clone();
    assert_eq!(shown.len(), 1, "asked once: {shown:?}");
    let message = &shown[0];
    assert!(
        message.contains("rm victim.txt && echo removed"),
        "{message}"
    );
    assert!(message.contains("BG202"), "the rule: {message}");
    assert!(message.contains("at bytes 0..2"), "the span: {message}");
    assert!(message.contains("deletes"), "the reason: {message}");
    assert!(message.contains("\"approve\""), "the schema: {message}");

    // An allowed command does not ask.
    let quiet = call(
        &client,
        "run_command",
        json!({"command": "true", "description": "x"}),
    )
    .await;
    assert_ne!(quiet.is_error, Some(true));
    assert_eq!(user.shown.lock().expect("lock").len(), 1);

    // The approval was for that run only: the next ask asks again.
    std::fs::write(root.join("victim.txt"), "again").expect("victim");
    call(
        &client,
        "run_command",
        json!({"command": "rm victim.txt", "description": "x", "run_in_background": true}),
    )
    .await;
    assert_eq!(user.shown.lock().expect("lock").len(), 2);
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn anything_but_an_approval_leaves_the_command_not_run() {
    for (tag, answer) in [
        ("ask-false", Answer::ApproveFalse),
        ("ask-decline", Answer::Decline),
        ("ask-cancel", Answer::Cancel),
        ("ask-garbage", Answer::Garbage),
        ("ask-empty", Answer::NoContent),
        ("ask-error", Answer::Error),
    ] {
        let (root, user, client) = session(tag, answer).await;
        for background in [false, true] {
            let result = call(
                &client,
                "run_command",
                json!({"command": "rm victim.txt", "description": "x",
                       "run_in_background": background}),
            )
            .await;
            assert_eq!(result.is_error, Some(true), "{answer:?}: {result:?}");
            let value = result.structured_content.clone().unwrap_or_default();
            assert_eq!(value["status"], "not_approved", "{answer:?}: {value}");
            assert_eq!(value["ran"], false, "{answer:?}");
        }
        assert!(
            root.join("victim.txt").exists(),
            "{answer:?} ran the command"
        );
        assert_eq!(user.shown.lock().expect("lock").len(), 2, "{answer:?}");
        client.cancel().await.expect("close");
    }
}

#[tokio::test]
async fn a_deny_is_not_asked_about() {
    let (root, user, client) = session("ask-deny", Answer::Approve).await;
    let result = call(
        &client,
        "run_command",
        json!({"command": "rm victim.txt; sudo reboot", "description": "x"}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        result.structured_content.clone().unwrap_or_default()["status"],
        "denied"
    );
    assert!(user.shown.lock().expect("lock").is_empty());
    assert!(root.join("victim.txt").exists());
    client.cancel().await.expect("close");
}
