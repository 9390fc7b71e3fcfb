//! OpenAPI `links` between the game operations, so that a client (or schemathesis's stateful
//! phase) can chain them: create -> list actions -> post one -> read the events. Each link
//! carries the game's id and the bearer token the next call needs.

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
}

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
        ],
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

fn link(target: &str, carry: Carry) -> Link {
    let (id, token, mut description) = match carry {
        Carry::CreatedSeat => (
            "$response.body#/id",
            "Bearer {$response.body#/seats/0/token}",
            "The created game, as its first seat (`seats[0].token`).",
        ),
        Carry::CreatedHost => (
            "$response.body#/id",
            "Bearer {$response.body#/host_token}",
            "The created game, with its host token.",
        ),
        Carry::SameSeat => (
            "$request.path.id",
            "$request.header.Authorization",
            "The same game, with the same seat's token.",
        ),
    };
    let mut body = None;
    if target == "post_action" {
        description = "Post the first of the listed actions, as the same seat.";
        body = Some(serde_json::json!({"action": "$response.body#/actions/0"}));
    }
    Link::builder()
        .operation_id(target)
        .description(description)
        .parameter("path.id", id)
        .parameter("header.Authorization", token)
        .request_body(body)
        .build()
}
