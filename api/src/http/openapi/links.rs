//! OpenAPI `links` between the game operations, so that a client (or schemathesis's stateful
//! phase) can chain them: create -> list actions -> post one -> read the events, and list open
//! games -> join a seat -> play it. Each link carries the game's id and the bearer token the next
//! call needs, if it needs one.

use utoipa::Modify;
use utoipa::openapi::link::Link;
use utoipa::openapi::path::Operation;
use utoipa::openapi::{OpenApi as Document, RefOr};

/// The response each link starts from, the link's name, and what it carries.
struct Chain {
    path: &'static str,
    method: fn(&mut utoipa::openapi::PathItem) -> Option<&mut Operation>,
    status: &'static str,
    links: &'static [(&'static str, &'static str, Carry)],
}

/// Where the next call's game id and token come from.
#[derive(Clone, Copy)]
enum Carry {
    /// The created game's id and the first seat's token (`seats[0].token`).
    CreatedSeat,
    /// The created game's id and its host token.
    CreatedHost,
    /// The id and the `Authorization` header of the request that got this response.
    SameSeat,
    /// The game's id and the seat's token that a join or a reissue answered.
    Granted,
    /// The created game's id only: joining needs no token.
    CreatedGame,
    /// The first listed open game's id only.
    ListedGame,
}

/// Where a seat's new token leads: its game, as that seat.
const GRANTED: &[(&str, &str, Carry)] = &[
    ("GetGame", "get_game", Carry::Granted),
    ("ListActions", "list_actions", Carry::Granted),
    ("ListEvents", "list_events", Carry::Granted),
];

const CHAINS: &[Chain] = &[
    Chain {
        path: "/v1/games",
        method: |item| item.post.as_mut(),
        status: "201",
        links: &[
            ("GetGame", "get_game", Carry::CreatedSeat),
            ("ListActions", "list_actions", Carry::CreatedSeat),
            ("ListEvents", "list_events", Carry::CreatedSeat),
            ("DeleteGame", "delete_game", Carry::CreatedHost),
            ("JoinOpenSeat", "join_first_open", Carry::CreatedGame),
        ],
    },
    Chain {
        path: "/v1/games",
        method: |item| item.get.as_mut(),
        status: "200",
        links: &[("JoinListedGame", "join_first_open", Carry::ListedGame)],
    },
    Chain {
        path: "/v1/games/{id}/seats",
        method: |item| item.post.as_mut(),
        status: "201",
        links: GRANTED,
    },
    Chain {
        path: "/v1/games/{id}/seats/{seat}",
        method: |item| item.post.as_mut(),
        status: "201",
        links: GRANTED,
    },
    Chain {
        path: "/v1/games/{id}/seats/{seat}/token",
        method: |item| item.post.as_mut(),
        status: "201",
        links: GRANTED,
    },
    Chain {
        path: "/v1/games/{id}/actions",
        method: |item| item.get.as_mut(),
        status: "200",
        links: &[("PostFirstAction", "post_action", Carry::SameSeat)],
    },
    Chain {
        path: "/v1/games/{id}/actions",
        method: |item| item.post.as_mut(),
        status: "200",
        links: &[
            ("ListEvents", "list_events", Carry::SameSeat),
            ("ListActions", "list_actions", Carry::SameSeat),
            ("GetGame", "get_game", Carry::SameSeat),
        ],
    },
];

/// Adds the links of [`CHAINS`] to the responses they start from; applied once the routes'
/// operations are in the document.
pub struct Links;

impl Modify for Links {
    fn modify(&self, doc: &mut Document) {
        for chain in CHAINS {
            add(doc, chain);
        }
    }
}

fn add(doc: &mut Document, chain: &Chain) {
    let Some(item) = doc.paths.paths.get_mut(chain.path) else {
        return;
    };
    let Some(operation) = (chain.method)(item) else {
        return;
    };
    let Some(RefOr::T(response)) = operation.responses.responses.get_mut(chain.status) else {
        return;
    };
    for (name, target, carry) in chain.links {
        response
            .links
            .insert((*name).to_owned(), RefOr::T(link(target, *carry)));
    }
}

/// The extension that carries a link's request body when it is JSON with runtime expressions
/// inside: a link's `requestBody` is "Any | {expression}", but openapi-generator's validation
/// takes it for an expression string only, so the object is kept beside it (schemathesis's
/// stateful test puts it back as `requestBody`, which it evaluates nested).
pub const REQUEST_BODY: &str = "x-request-body";

fn link(target: &str, carry: Carry) -> Link {
    let (id, token, mut description) = match carry {
        Carry::CreatedSeat => (
            "$response.body#/id",
            Some("Bearer {$response.body#/seats/0/token}"),
            "The created game, as its first seat (`seats[0].token`).",
        ),
        Carry::CreatedHost => (
            "$response.body#/id",
            Some("Bearer {$response.body#/host_token}"),
            "The created game, with its host token.",
        ),
        Carry::SameSeat => (
            "$request.path.id",
            Some("$request.header.Authorization"),
            "The same game, with the same seat's token.",
        ),
        Carry::Granted => (
            "$response.body#/id",
            Some("Bearer {$response.body#/token}"),
            "The game, as the seat whose token this answer carries.",
        ),
        Carry::CreatedGame => (
            "$response.body#/id",
            None,
            "Join the created game's first open seat (a game created with open seats).",
        ),
        Carry::ListedGame => (
            "$response.body#/games/0/id",
            None,
            "Join the first listed game's first open seat.",
        ),
    };
    let mut body = None;
    if target == "post_action" {
        description = "Post the first of the listed actions, as the same seat: \
            `{\"action\": <the response's actions[0]>}`, which `x-request-body` gives as JSON with \
            a runtime expression inside.";
        body = Some(
            utoipa::openapi::extensions::ExtensionsBuilder::new()
                .add(
                    REQUEST_BODY,
                    serde_json::json!({"action": "$response.body#/actions/0"}),
                )
                .build(),
        );
    }
    let mut builder = Link::builder()
        .operation_id(target)
        .description(description)
        .parameter("path.id", id)
        .extensions(body);
    if let Some(token) = token {
        builder = builder.parameter("header.Authorization", token);
    }
    builder.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chain_is_in_the_document_and_every_link_names_an_operation() {
        let doc = serde_json::to_value(crate::http::openapi::document()).expect("the document is JSON");
        let operations: Vec<&str> = doc["paths"]
            .as_object()
            .expect("paths")
            .values()
            .flat_map(|item| item.as_object().into_iter().flat_map(|ops| ops.values()))
            .filter_map(|op| op["operationId"].as_str())
            .collect();
        let mut checked = 0;
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for op in item.as_object().expect("a path item").values() {
                let Some(responses) = op["responses"].as_object() else {
                    continue;
                };
                for response in responses.values() {
                    for (name, link) in response["links"].as_object().into_iter().flatten() {
                        let target = link["operationId"].as_str().expect("operationId");
                        assert!(operations.contains(&target), "{path} {name} -> {target}");
                        assert!(
                            link.get("requestBody").is_none_or(|body| body.is_string()),
                            "{path} {name}: a requestBody that openapi-generator refuses"
                        );
                        checked += 1;
                    }
                }
            }
        }
        let declared: usize = CHAINS.iter().map(|chain| chain.links.len()).sum();
        assert_eq!(
            checked, declared,
            "a chain's path, method or status is not in the document"
        );
    }
}
