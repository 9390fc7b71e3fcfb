//! The wire types of `GET /v1/rulesets/{ruleset}/components`, a ruleset's component catalogue,
//! and of `GET /v1/rulesets/{ruleset}/rules`, its rules.

use std::borrow::Cow;

use serde::Serialize;
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type,
};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

/// Every printed component of a ruleset, by kind.
#[derive(Serialize, ToSchema)]
pub struct RulesetComponents {
    /// The ruleset's slug.
    pub ruleset: &'static str,
    /// Each kind (a snake_case plural: `cards`, `artists`, `cities`, `die_faces`) lists its
    /// components in table order.
    #[schema(value_type = ComponentsByKind)]
    pub components: roadie_engine::Catalogue,
}

/// A ruleset's rules, in Roadie's words: the "how to play" overview (`goal`, `setup`, `turn`,
/// `end`, `scoring`), then every ruling the ruleset cites in its phases, options, problems,
/// component texts and messages.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulesetRules {
    /// The ruleset's slug.
    pub ruleset: &'static str,
    /// The rules, overview first.
    pub rules: Vec<roadie_engine::texts::Rule>,
}

/// The kinds of a ruleset's components, each a list of components.
pub struct ComponentsByKind;

impl PartialSchema for ComponentsByKind {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .description(Some(
                "Each kind of component (a snake_case plural) and its components, in table order.",
            ))
            .additional_properties(Some(AdditionalProperties::RefOr(
                ArrayBuilder::new()
                    .items(Ref::from_schema_name("Component"))
                    .into(),
            )))
            .into()
    }
}

impl ToSchema for ComponentsByKind {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((Component::name().into_owned(), Component::schema()));
    }
}

/// One component: its id, printed name and every printed attribute.
pub struct Component;

impl PartialSchema for Component {
    fn schema() -> RefOr<Schema> {
        let id = OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::String))
            .item(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)))
            .description(Some(
                "The id views, actions and events carry for it (a string, or a number where they number it: a space, a chart field).",
            ));
        ObjectBuilder::new()
            .description(Some(
                "A printed component: `id`, `name`, and its printed attributes under their own names, \
                 with enum-like values spelled as everywhere else on the wire (snake_case ids of other entries).",
            ))
            .property("id", id)
            .property("name", ObjectBuilder::new().schema_type(Type::String).description(Some("The printed name.")))
            .required("id")
            .required("name")
            .additional_properties(Some(AdditionalProperties::FreeForm(true)))
            .into()
    }
}

impl ToSchema for Component {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Component")
    }
}
