/**
 * Type-level checks of what a tRPC client sees (checked by typecheck.test.ts through tsc):
 * inputs are typed end to end — never `unknown` — and outputs carry the spec's names and types.
 */
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "broker-directory";

type Inputs = inferRouterInputs<AppRouter>;
type Outputs = inferRouterOutputs<AppRouter>;
type Is<T extends true> = T;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export type PageIsTyped = Is<Equal<Inputs["brokers"]["search"]["page"], number | string | undefined>>;
export type LimitIsTyped = Is<Equal<Inputs["reviews"]["list"]["limit"], number | string | undefined>>;
export type BrokerIdIsAString = Is<Equal<Inputs["reviews"]["list"]["brokerId"], string | undefined>>;
export type EmbedLimitIsTyped = Is<Equal<Inputs["embed"]["brokers"]["limit"], number | string | undefined>>;

type ListItem = Outputs["brokers"]["search"]["data"][number];
type Detail = Outputs["brokers"]["get"];
type Review = Outputs["reviews"]["list"]["data"][number];
export type ListItemIdIsAString = Is<Equal<ListItem["id"], string>>;
export type AverageRatingIsANumber = Is<Equal<ListItem["averageRating"], number>>;
export type DetailRatingIsTheSpecs = Is<Equal<Pick<Detail["rating"], "averageRating" | "totalReviews">, { averageRating: number; totalReviews: number }>>;
export type FoundingYearIsAnInteger = Is<Equal<Detail["foundingYear"], number>>;
export type VerifiedIsABoolean = Is<Equal<Detail["isVerified"], boolean>>;
export type ReviewTextIsContent = Is<Equal<Review["content"], string>>;
export type ReviewIdIsAString = Is<Equal<Review["id"], string>>;
